using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.ObjectPool;

/// <summary>
/// Seed 000, DrainRefillSingle: one thread takes every object out of a full pool of <see cref="Count"/> objects, then
/// returns them all. Microsoft's <see cref="DefaultObjectPool{T}"/> is the baseline.
/// </summary>
/// <remarks>
/// Our pool's bound is strict and split into stripes and thread slots; one thread reaches the stripes and its own slot
/// only, <c>Count − ThreadSlotCount + 1</c> objects, so each drain creates the missing objects through the policy
/// (one per drain on a 2-core machine, where even counts give 2 thread slots).
/// </remarks>
[MemoryDiagnoser]
[BenchmarkCategory("DrainRefillSingle")]
public class ObjectDrainRefillSingle
{
    private DefaultObjectPool<PooledFoo> _default = null!;
    private StripedObjectPool<PooledFoo> _striped = null!;
    private PooledFoo[] _store = null!;

    [Params(8, 16, 64, 256, 1024, 2048)]
    public int Count { get; set; }

    [GlobalSetup]
    public void GlobalSetup()
    {
        _default = new DefaultObjectPool<PooledFoo>(new DefaultPooledObjectPolicy<PooledFoo>(), Count);
        _striped = new StripedObjectPool<PooledFoo>(new DefaultPooledObjectPolicy<PooledFoo>(), Count);
        for (int i = 0; i < Count; i++)
        {
            _default.Return(new PooledFoo());
            _striped.Return(new PooledFoo());
        }

        _store = new PooledFoo[Count];
    }

    [Benchmark(Baseline = true, Description = "DefaultObjectPool")]
    public void Default()
    {
        PooledFoo[] store = _store;
        for (int i = 0; i < store.Length; i++)
        {
            store[i] = _default.Get();
        }

        for (int i = 0; i < store.Length; i++)
        {
            _default.Return(store[i]);
        }
    }

    [Benchmark(Description = "StripedObjectPool")]
    public void Striped()
    {
        PooledFoo[] store = _store;
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
