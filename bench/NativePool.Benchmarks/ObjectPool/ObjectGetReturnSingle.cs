using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.ObjectPool;

/// <summary>
/// Seed 000, GetReturnSingle: one thread, a pool of 8 prefilled objects, Get then Return. Microsoft's
/// <see cref="DefaultObjectPool{T}"/> is the baseline; ours is measured through its own (sealed) type and through the
/// abstract <see cref="ObjectPool{T}"/>, as code that resolves it from DI calls it.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("GetReturnSingle")]
public class ObjectGetReturnSingle
{
    private const int Count = 8;

    private DefaultObjectPool<PooledFoo> _default = null!;
    private StripedObjectPool<PooledFoo> _striped = null!;
    private ObjectPool<PooledFoo> _stripedAsObjectPool = null!;

    [GlobalSetup]
    public void GlobalSetup()
    {
        _default = new DefaultObjectPool<PooledFoo>(new DefaultPooledObjectPolicy<PooledFoo>(), Count);
        _striped = new StripedObjectPool<PooledFoo>(new DefaultPooledObjectPolicy<PooledFoo>(), Count);
        _stripedAsObjectPool = _striped;
        for (int i = 0; i < Count; i++)
        {
            _default.Return(new PooledFoo());
            _striped.Return(new PooledFoo());
        }
    }

    [Benchmark(Baseline = true, Description = "DefaultObjectPool")]
    public void Default() => _default.Return(_default.Get());

    [Benchmark(Description = "StripedObjectPool")]
    public void Striped() => _striped.Return(_striped.Get());

    [Benchmark(Description = "StripedObjectPool as ObjectPool<T>")]
    public void StripedAsObjectPool() => _stripedAsObjectPool.Return(_stripedAsObjectPool.Get());
}
