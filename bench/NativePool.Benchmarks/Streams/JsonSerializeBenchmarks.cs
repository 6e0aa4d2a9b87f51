using CommunityToolkit.HighPerformance.Buffers;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Streams;

/// <summary>
/// <c>JsonSerializer.Serialize</c> of an order graph of about 10 KiB through a <c>Utf8JsonWriter</c> into a pooled buffer
/// writer that starts at 256 bytes. Baseline: CommunityToolkit's <c>ArrayPoolBufferWriter&lt;byte&gt;</c> over
/// <c>ArrayPool&lt;byte&gt;.Shared</c>; <see cref="PooledBufferWriter{T}"/> over <c>StripedArrayPool&lt;byte&gt;.Shared</c> beside it.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Streams", "JsonSerialize")]
public class JsonSerializeBenchmarks
{
    [Benchmark(Baseline = true, Description = PeerNames.ArrayPoolBufferWriter)]
    public int Toolkit()
    {
        using var buffer = new ArrayPoolBufferWriter<byte>(ArrayPool<byte>.Shared);
        StreamWork.SerializeOrder(buffer);
        return buffer.WrittenCount;
    }

    [Benchmark(Description = PeerNames.PooledBufferWriter)]
    public int Pooled()
    {
        using var buffer = new PooledBufferWriter<byte>();
        StreamWork.SerializeOrder(buffer);
        return buffer.WrittenCount;
    }
}
