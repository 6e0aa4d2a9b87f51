using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Seed 000, DrainRefillSingle: on one thread, Get <see cref="Count"/> objects from a pool of <see cref="Count"/>
/// (prefilled), then Return them all — the long-rental, spiky-traffic pattern. Baseline: Microsoft's pool.
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
public class DrainRefillSingleBenchmarks
{
    private DefaultObjectPool<PooledObject> _default = null!;
    private TeddStyleObjectPool<PooledObject> _teddStyle = null!;
    private StripedObjectPool<PooledObject> _striped = null!;
    private PooledObject[] _store = null!;

    [ParamsSource(nameof(Counts))]
    public int Count { get; set; }

    public static IEnumerable<int> Counts => BenchParams.Select([8, 16, 64, 256, 1024, 2048], [8, 2048]);

    [GlobalSetup]
    public void Setup()
    {
        _store = new PooledObject[Count];
        _default = new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Count);
        for (int i = 0; i < Count; i++)
        {
            _default.Return(new PooledObject());
        }

        _teddStyle = new TeddStyleObjectPool<PooledObject>(static () => new PooledObject(), null, Count);
        _teddStyle.Prefill(Count);

        _striped = new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Count);
        for (int i = 0; i < Count; i++)
        {
            _striped.Return(new PooledObject());
        }
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _teddStyle.Dispose();
        _striped.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default()
    {
        PooledObject[] store = _store;
        for (int i = 0; i < store.Length; i++)
        {
            store[i] = _default.Get();
        }

        for (int i = 0; i < store.Length; i++)
        {
            _default.Return(store[i]);
        }
    }

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle()
    {
        PooledObject[] store = _store;
        for (int i = 0; i < store.Length; i++)
        {
            store[i] = _teddStyle.Allocate();
        }

        for (int i = 0; i < store.Length; i++)
        {
            _teddStyle.Free(store[i]);
        }
    }

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped()
    {
        PooledObject[] store = _store;
        for (int i = 0; i < store.Length; i++)
        {
            store[i] = _striped.Get();
        }

        for (int i = 0; i < store.Length; i++)
        {
            _striped.Return(store[i]);
        }
    }
}
