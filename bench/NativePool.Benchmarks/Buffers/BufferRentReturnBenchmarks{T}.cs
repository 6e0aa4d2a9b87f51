using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Buffers;

/// <summary>
/// Test_BufferPools' benchmark: one Rent and one Return of <see cref="Length"/> elements on one thread, for every array
/// pool a user might reach for. Baseline: <see cref="ArrayPool{T}.Shared"/>.
/// </summary>
/// <remarks>
/// Every method rents and returns without touching the array, as the original does, so the numbers are the pools' own cost.
/// Length 0 measures the empty-array path; 1 000 000 elements is above <c>ArrayPool.Shared</c>'s per-thread classes for
/// wide element types but inside ours. <c>object</c> arrays are cleared when our pool keeps them (it never keeps
/// references alive), which <c>ArrayPool.Shared</c> does not do unless asked: that clearing is in our rows. Our pinned
/// <see cref="StripedMemoryPool{T}"/> serves unmanaged elements only, so its row exists for byte, char and int.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[MemoryDiagnoser]
[BenchmarkCategory("Buffers")]
[GenericTypeArguments(typeof(byte))]
[GenericTypeArguments(typeof(char))]
[GenericTypeArguments(typeof(int))]
[GenericTypeArguments(typeof(object))]
public class BufferRentReturnBenchmarks<T>
{
    private static readonly MemoryPool<T>? s_stripedMemoryPool = StripedMemoryPools.SharedFor<T>();

    [ParamsSource(nameof(Lengths))]
    public int Length { get; set; }

    public static IEnumerable<int> Lengths => BenchParams.Select([0, 1, 100, 1000, 10_000, 1_000_000], [0, 100, 1_000_000]);

    [GlobalSetup]
    public void Setup()
    {
        // Warm every pool's thread-local tier for this length so the first measured call is not a miss.
        ArrayPool<T>.Shared.Return(ArrayPool<T>.Shared.Rent(Length));
        StripedArrayPool<T>.Shared.Return(StripedArrayPool<T>.Shared.Rent(Length));
        MemoryPool<T>.Shared.Rent(Length).Dispose();
        s_stripedMemoryPool?.Rent(Length).Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.ArrayPoolShared)]
    public void ArrayPoolShared()
    {
        T[] array = ArrayPool<T>.Shared.Rent(Length);
        ArrayPool<T>.Shared.Return(array);
    }

    [Benchmark(Description = PeerNames.ArrayPoolScope)]
    public void ArrayPoolScoped()
    {
        using var scope = new ArrayPoolScope<T>(Length);
    }

    [Benchmark(Description = PeerNames.MemoryPoolShared)]
    public void MemoryPoolShared()
    {
        using IMemoryOwner<T> owner = MemoryPool<T>.Shared.Rent(Length);
    }

    [Benchmark(Description = PeerNames.StripedArrayPool)]
    public void StripedRaw()
    {
        T[] array = StripedArrayPool<T>.Shared.Rent(Length);
        StripedArrayPool<T>.Shared.Return(array);
    }

    [Benchmark(Description = PeerNames.StripedArrayPoolScoped)]
    public void StripedScoped()
    {
        using ArrayScope<T> lease = StripedArrayPool<T>.Shared.RentScoped(Length);
    }

    [Benchmark(Description = PeerNames.StripedMemoryPool)]
    [UnmanagedElementsOnly]
    public void StripedMemoryPool()
    {
        using IMemoryOwner<T> owner = s_stripedMemoryPool!.Rent(Length);
    }
}
