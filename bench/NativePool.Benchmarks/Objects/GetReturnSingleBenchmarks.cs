using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Seed 000 (aspnetcore's ObjectPool micro-benchmarks), GetReturnSingle: one Get and one Return on one thread, pool of 8,
/// prefilled. Baseline: Microsoft's <see cref="DefaultObjectPool{T}"/>.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Objects", "GetReturnSingle")]
public class GetReturnSingleBenchmarks
{
    private const int PoolSize = 8;

    private DefaultObjectPool<PooledObject> _default = null!;
    private TeddStyleObjectPool<PooledObject> _teddStyle = null!;

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
    }

    [GlobalCleanup]
    public void Cleanup() => _teddStyle.Dispose();

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => _default.Return(_default.Get());

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => _teddStyle.Free(_teddStyle.Allocate());
}
