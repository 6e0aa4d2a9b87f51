using System.Threading.Tasks;
using Microsoft.IO;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Streams;

/// <summary>
/// Four threads at once, each getting, writing (64 KiB in 4 KiB writes) and disposing StreamsPerThread streams of one
/// shared manager; time per invocation (all threads). Baseline: RecyclableMemoryStream 4.0.1 with its default options;
/// <see cref="PooledStream"/> on <see cref="PooledStreamManager.Shared"/> beside it.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Streams", "ParallelStreams")]
public class ParallelStreamsBenchmarks
{
    public const int Threads = 4;
    public const int StreamsPerThread = 16;
    public const int Bytes = 64 * 1024;

    private static readonly ParallelOptions s_options = new() { MaxDegreeOfParallelism = Threads };

    [Benchmark(Baseline = true, Description = PeerNames.RecyclableMemoryStream)]
    public void Recyclable() => Parallel.For(0, Threads, s_options, static _ =>
    {
        for (int i = 0; i < StreamsPerThread; i++)
        {
            using RecyclableMemoryStream stream = StreamWork.Recyclable.GetStream();
            StreamWork.WriteChunks(stream, Bytes);
        }
    });

    [Benchmark(Description = PeerNames.PooledStream)]
    public void Pooled() => Parallel.For(0, Threads, s_options, static _ =>
    {
        for (int i = 0; i < StreamsPerThread; i++)
        {
            using PooledStream stream = PooledStreamManager.Shared.GetStream();
            StreamWork.WriteChunks(stream, Bytes);
        }
    });
}
