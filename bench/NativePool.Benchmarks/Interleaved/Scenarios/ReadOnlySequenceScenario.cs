using Microsoft.IO;
using NativePool.Benchmarks.Infrastructure;

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
        new InterleavedScenario<Pooled, Recyclable>(
            "stream: GetReadOnlySequence of 1 MiB + read back vs RecyclableMemoryStream",
            0.80,
            () => new Pooled(Filled(PooledStreamManager.Shared.GetStream())),
            () => new Recyclable(Filled(StreamWork.Recyclable.GetStream())));

    private static T Filled<T>(T stream)
        where T : System.IO.Stream
    {
        StreamWork.WriteChunks(stream, Bytes);
        return stream;
    }

    private readonly struct Pooled(PooledStream stream) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            long sum = 0;
            for (int i = 0; i < count; i++)
            {
                sum += StreamWork.ReadBack(stream.GetReadOnlySequence());
            }

            GC.KeepAlive(sum);
        }

        public void Dispose() => stream.Dispose();
    }

    private readonly struct Recyclable(RecyclableMemoryStream stream) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            long sum = 0;
            for (int i = 0; i < count; i++)
            {
                sum += StreamWork.ReadBack(stream.GetReadOnlySequence());
            }

            GC.KeepAlive(sum);
        }

        public void Dispose() => stream.Dispose();
    }
}
