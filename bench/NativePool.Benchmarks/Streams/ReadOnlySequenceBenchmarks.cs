using Microsoft.IO;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Streams;

/// <summary>
/// <c>GetReadOnlySequence()</c> of a 1 MiB stream written once in setup, and a read of every segment. Baseline:
/// RecyclableMemoryStream 4.0.1 with its default options; <see cref="PooledStream"/> on
/// <see cref="PooledStreamManager.Shared"/> beside it.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Streams", "ReadOnlySequence")]
public class ReadOnlySequenceBenchmarks
{
    public const int Bytes = 1024 * 1024;

    private RecyclableMemoryStream? _recyclable;
    private PooledStream? _pooled;

    [GlobalSetup]
    public void Setup()
    {
        _recyclable = StreamWork.Recyclable.GetStream();
        _pooled = PooledStreamManager.Shared.GetStream();
        StreamWork.WriteChunks(_recyclable, Bytes);
        StreamWork.WriteChunks(_pooled, Bytes);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _recyclable?.Dispose();
        _pooled?.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.RecyclableMemoryStream)]
    public long Recyclable() => StreamWork.ReadBack(_recyclable!.GetReadOnlySequence());

    [Benchmark(Description = PeerNames.PooledStream)]
    public long Pooled() => StreamWork.ReadBack(_pooled!.GetReadOnlySequence());
}
