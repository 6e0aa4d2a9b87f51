using System.Buffers;
using NativePool;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks;

/// <summary>
/// One <c>MemoryPool&lt;byte&gt;</c> Rent + touch Memory + Dispose on one thread: the BCL's Shared pool (an owner object
/// allocated per rent) against ours (pooled pinned owners), and our struct lease.
/// </summary>
[MemoryDiagnoser]
public class MemoryPoolRentDisposeBenchmarks
{
    private const string Category = "MemoryPoolRentDispose";

    [Params(1, 100, 4096, 65_536)]
    public int Length { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // Warm both pools so the measured loop is steady state.
        MemoryPool<byte>.Shared.Rent(Length).Dispose();
        StripedMemoryPool<byte>.Shared.Rent(Length).Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.MemoryPoolShared)]
    [BenchmarkCategory(Category)]
    public int BclShared()
    {
        using IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(Length);
        return owner.Memory.Length;
    }

    [Benchmark(Description = PeerNames.StripedMemoryPool)]
    [BenchmarkCategory(Category)]
    public int StripedShared()
    {
        using IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(Length);
        return owner.Memory.Length;
    }

    [Benchmark(Description = PeerNames.StripedMemoryPoolScoped)]
    [BenchmarkCategory(Category)]
    public int StripedScoped()
    {
        using MemoryLease<byte> lease = StripedMemoryPool<byte>.Shared.RentLease(Length);
        return lease.Memory.Length;
    }
}
