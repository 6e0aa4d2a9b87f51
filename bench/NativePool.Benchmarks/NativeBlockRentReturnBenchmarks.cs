using System.Runtime.InteropServices;
using NativePool;

namespace NativePool.Benchmarks;

/// <summary>
/// One native block lease + dispose on one thread, against our managed array pool of the same size (raw and scoped
/// lease) and against a bare <c>NativeMemory.AlignedAlloc</c> + <c>AlignedFree</c> pair (128-byte alignment).
/// </summary>
[MemoryDiagnoser]
public class NativeBlockRentReturnBenchmarks
{
    private const string VsArrayPool = "NativeBlockVsArrayPool";
    private const string VsAlignedAlloc = "NativeBlockVsAlignedAlloc";

    private NativeBlockPool _pool = null!;

    [Params(128, 4096, 65_536)]
    public int Size { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _pool = NativeBlockPool.Create();
        _pool.Rent(Size).Dispose();
        StripedArrayPool<byte>.Shared.Return(StripedArrayPool<byte>.Shared.Rent(Size));
    }

    [GlobalCleanup]
    public void Cleanup() => _pool.Dispose();

    [Benchmark(Baseline = true, Description = "StripedArrayPool<byte>.Shared Rent+Return")]
    [BenchmarkCategory(VsArrayPool)]
    public int ArrayPoolRentReturn()
    {
        byte[] array = StripedArrayPool<byte>.Shared.Rent(Size);
        int length = array.Length;
        StripedArrayPool<byte>.Shared.Return(array);
        return length;
    }

    [Benchmark(Description = "StripedArrayPool<byte>.Shared RentScoped")]
    [BenchmarkCategory(VsArrayPool)]
    public int ArrayPoolScoped()
    {
        using ArrayScope<byte> lease = StripedArrayPool<byte>.Shared.RentScoped(Size);
        return lease.Length;
    }

    [Benchmark(Description = "NativeBlockPool lease")]
    [BenchmarkCategory(VsArrayPool)]
    public int NativeLease() => RentAndDispose();

    [Benchmark(Baseline = true, Description = "NativeMemory.AlignedAlloc+AlignedFree")]
    [BenchmarkCategory(VsAlignedAlloc)]
    public unsafe nint AlignedAllocFree()
    {
        void* block = NativeMemory.AlignedAlloc((nuint)Size, 128);
        nint address = (nint)block;
        NativeMemory.AlignedFree(block);
        return address;
    }

    [Benchmark(Description = "NativeBlockPool lease ")]
    [BenchmarkCategory(VsAlignedAlloc)]
    public int NativeLeaseVsAlignedAlloc() => RentAndDispose();

    private int RentAndDispose()
    {
        using NativeBlockLease lease = _pool.Rent(Size);
        return lease.Length;
    }
}
