using static NativePool.Benchmarks.Infrastructure.StreamSources;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// A 1 MiB stream written once in setup, then, per operation, <c>GetReadOnlySequence()</c> and a read of every segment:
/// <see cref="PooledStream"/> (on <see cref="PooledStreamManager.Shared"/>) against RecyclableMemoryStream 4.0.1 with
/// its default options. Goal ≤ 0.80.
/// </summary>
public static class ReadOnlySequenceScenario
{
    public const int Bytes = 1024 * 1024;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<ReadSequence<Pooled>, ReadSequence<Recyclable>>(
            "stream: GetReadOnlySequence of 1 MiB + read back vs RecyclableMemoryStream",
            0.80,
            () => new(Bytes),
            () => new(Bytes));
}
