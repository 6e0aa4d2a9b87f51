using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// Independent pools: Rent+Return on one thread from a <see cref="StripedArrayPool{T}.Create()"/> instance, from
/// <see cref="StripedArrayPool{T}.Shared"/> (the baseline: an instance should cost the same), and from the BCL's
/// <see cref="ArrayPool{T}.Create()"/> (one lock per size, no thread-local tier) and <see cref="ArrayPool{T}.Shared"/>.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Ours", "CreateInstances")]
public class CreateInstancesBenchmarks
{
    private readonly StripedArrayPool<byte> _stripedInstance = StripedArrayPool<byte>.Create();
    private readonly ArrayPool<byte> _bclInstance = ArrayPool<byte>.Create();

    [ParamsSource(nameof(Lengths))]
    public int Length { get; set; }

    public static IEnumerable<int> Lengths => BenchParams.Select([16, 4096, 65_536], [4096]);

    [Benchmark(Baseline = true, Description = PeerNames.StripedArrayPool)]
    public void StripedShared()
    {
        byte[] array = StripedArrayPool<byte>.Shared.Rent(Length);
        StripedArrayPool<byte>.Shared.Return(array);
    }

    [Benchmark(Description = PeerNames.StripedArrayPoolCreate)]
    public void StripedCreate()
    {
        byte[] array = _stripedInstance.Rent(Length);
        _stripedInstance.Return(array);
    }

    [Benchmark(Description = PeerNames.ArrayPoolCreate)]
    public void ArrayPoolCreate()
    {
        byte[] array = _bclInstance.Rent(Length);
        _bclInstance.Return(array);
    }

    [Benchmark(Description = PeerNames.ArrayPoolShared)]
    public void ArrayPoolShared()
    {
        byte[] array = ArrayPool<byte>.Shared.Rent(Length);
        ArrayPool<byte>.Shared.Return(array);
    }
}
