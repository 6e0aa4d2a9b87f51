using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Seed 000 (aspnetcore's ObjectPool micro-benchmarks), GetReturnSingle: one Get and one Return on one thread, pool of 8,
/// prefilled. Baseline: Microsoft's <see cref="DefaultObjectPool{T}"/>. Ours is measured through its own sealed type and
/// through the abstract <see cref="ObjectPool{T}"/>, as code that resolves it from DI calls it.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Objects", "GetReturnSingle")]
public class GetReturnSingleBenchmarks
{
    private const int PoolSize = 8;

    private DefaultObjectPool<PooledObject> _default = null!;
    private TeddStyleObjectPool<PooledObject> _teddStyle = null!;
    private StripedObjectPool<PooledObject> _striped = null!;
    private ObjectPool<PooledObject> _stripedAsObjectPool = null!;

    [GlobalSetup]
    public void Setup()
    {
        _default = new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), PoolSize);
        for (int i = 0; i < PoolSize; i++)
        {
            _default.Return(new PooledObject());
        }

        _teddStyle = new TeddStyleObjectPool<PooledObject>(static () => new PooledObject(), null, PoolSize);
        _teddStyle.Prefill(PoolSize);

        _striped = new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), PoolSize);
        _stripedAsObjectPool = _striped;
        for (int i = 0; i < PoolSize; i++)
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
    public void Default() => _default.Return(_default.Get());

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => _teddStyle.Free(_teddStyle.Allocate());

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => _striped.Return(_striped.Get());

    [Benchmark(Description = PeerNames.StripedObjectPoolAbstract)]
    public void StripedAsObjectPool() => _stripedAsObjectPool.Return(_stripedAsObjectPool.Get());
}
