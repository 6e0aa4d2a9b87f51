using System.IO;
using Microsoft.IO;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Streams;

/// <summary>
/// A stream's whole life on one thread: get it, write Bytes in 4 KiB writes, dispose it. Baseline: RecyclableMemoryStream
/// 4.0.1 with its default options; a new <see cref="MemoryStream"/> and <see cref="PooledStream"/> on
/// <see cref="PooledStreamManager.Shared"/> beside it.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Streams", "StreamWrite")]
public class StreamWriteBenchmarks
{
    public static IEnumerable<int> BytesValues => BenchParams.Select([1024, 64 * 1024, 1024 * 1024, 16 * 1024 * 1024], [1024, 64 * 1024]);

    [ParamsSource(nameof(BytesValues))]
    public int Bytes { get; set; }

    [Benchmark(Baseline = true, Description = PeerNames.RecyclableMemoryStream)]
    public void Recyclable()
    {
        using RecyclableMemoryStream stream = StreamWork.Recyclable.GetStream();
        StreamWork.WriteChunks(stream, Bytes);
    }

    [Benchmark(Description = PeerNames.MemoryStream)]
    public void Plain()
    {
        using var stream = new MemoryStream();
        StreamWork.WriteChunks(stream, Bytes);
    }

    [Benchmark(Description = PeerNames.PooledStream)]
    public void Pooled()
    {
        using PooledStream stream = PooledStreamManager.Shared.GetStream();
        StreamWork.WriteChunks(stream, Bytes);
    }
}
