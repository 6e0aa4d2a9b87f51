using Microsoft.IO;
using NativePool.Benchmarks.Infrastructure;

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
        new InterleavedScenario<OnNewThreads<Pooled>, OnNewThreads<Recyclable>>(
            "stream: 4 threads x write 64 KiB + dispose vs RecyclableMemoryStream",
            0.50,
            () => new OnNewThreads<Pooled>(Threads, default),
            () => new OnNewThreads<Recyclable>(Threads, default));

    private readonly struct Pooled : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                using PooledStream stream = PooledStreamManager.Shared.GetStream();
                StreamWork.WriteChunks(stream, Bytes);
            }
        }
    }

    private readonly struct Recyclable : IOperation
    {
        public void Run(int count)
        {
            RecyclableMemoryStreamManager manager = StreamWork.Recyclable;
            for (int i = 0; i < count; i++)
            {
                using RecyclableMemoryStream stream = manager.GetStream();
                StreamWork.WriteChunks(stream, Bytes);
            }
        }
    }
}
