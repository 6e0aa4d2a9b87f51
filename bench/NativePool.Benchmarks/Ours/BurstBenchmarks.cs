using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// A burst: rent 1 024 arrays of 4 KiB on one thread, then return them all. <see cref="ArrayPool{T}.Shared"/> keeps a
/// bounded number per size and core (dotnet/runtime#69641), so most of a burst is allocated and dropped each time; a
/// pool whose retention covers the burst allocates nothing in steady state. Baseline: <c>ArrayPool&lt;byte&gt;.Shared</c>.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Ours", "Burst")]
public class BurstBenchmarks
{
    public const int Count = 1024;
    public const int Size = 4096;

    private readonly byte[][] _held = new byte[Count][];

    [Benchmark(Baseline = true, Description = PeerNames.ArrayPoolShared)]
    public void ArrayPoolShared()
    {
        byte[][] held = _held;
        for (int i = 0; i < held.Length; i++)
        {
            held[i] = ArrayPool<byte>.Shared.Rent(Size);
        }

        for (int i = 0; i < held.Length; i++)
        {
            ArrayPool<byte>.Shared.Return(held[i]);
        }
    }

    [Benchmark(Description = PeerNames.StripedArrayPool)]
    public void Striped()
    {
        byte[][] held = _held;
        for (int i = 0; i < held.Length; i++)
        {
            held[i] = StripedArrayPool<byte>.Shared.Rent(Size);
        }

        for (int i = 0; i < held.Length; i++)
        {
            StripedArrayPool<byte>.Shared.Return(held[i]);
        }
    }
}
