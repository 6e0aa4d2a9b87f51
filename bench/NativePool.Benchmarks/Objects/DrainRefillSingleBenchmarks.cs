using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// DrainRefillSingle (aspnetcore's ObjectPool micro-benchmark): on one thread, Get <see cref="Count"/> objects from a pool
/// of <see cref="Count"/> (prefilled), then Return them all — the long-rental, spiky-traffic pattern. Baseline:
/// Microsoft's pool.
/// </summary>
/// <remarks>
/// Our pool's bound is strict and split into stripes and thread slots: one thread reaches the stripes and its own slot
/// only, <c>Count − ThreadSlotCount + 1</c> objects, so each of its drains creates the missing objects through the policy
/// (one per drain on a 2-core machine); the Allocated column shows it. The Tedd-style pool holds <c>Count</c> shared
/// slots plus the thread's one-item cache.
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Objects", "DrainRefillSingle")]
public class DrainRefillSingleBenchmarks : ObjectSuite
{
    private PooledObject[] _store = null!;

    [ParamsSource(nameof(Counts))]
    public int Count { get; set; }

    public static IEnumerable<int> Counts => BenchParams.Select([8, 16, 64, 256, 1024, 2048], [8, 2048]);

    [GlobalSetup]
    public void Setup()
    {
        _store = new PooledObject[Count];
        CreatePools(Count);
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => ObjectWork.DrainRefill(DefaultPool, _store);

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => ObjectWork.DrainRefill(TeddStylePool, _store);

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => ObjectWork.DrainRefill(StripedPool, _store);
}
