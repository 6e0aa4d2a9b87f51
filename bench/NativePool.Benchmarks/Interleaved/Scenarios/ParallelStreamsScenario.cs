using static NativePool.Benchmarks.Infrastructure.StreamSources;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Four threads, each getting, writing (64 KiB in 4 KiB writes) and disposing streams of one shared manager:
/// <see cref="PooledStreamManager.Shared"/> against RecyclableMemoryStream 4.0.1 with its default options. The threads
/// are started and joined inside each timed batch, on both sides alike. One operation is one stream. Goal ≤ 0.50.
/// </summary>
public static class ParallelStreamsScenario
{
    public const int Threads = 4;
    public const int Bytes = 64 * 1024;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<OnNewThreads<WriteAndDispose<Pooled>>, OnNewThreads<WriteAndDispose<Recyclable>>>(
            "stream: 4 threads x write 64 KiB + dispose vs RecyclableMemoryStream",
            0.50,
            () => new(Threads, new(Bytes)),
            () => new(Threads, new(Bytes)));
}
