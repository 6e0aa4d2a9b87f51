using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// GetReturnSingle (aspnetcore's ObjectPool micro-benchmark): one Get and one Return on one thread, pool of 8, prefilled.
/// Baseline: Microsoft's <c>DefaultObjectPool&lt;T&gt;</c>. Ours is measured through its own sealed type and through the
/// abstract <c>ObjectPool&lt;T&gt;</c>, as code that resolves it from DI calls it.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Objects", "GetReturnSingle")]
public class GetReturnSingleBenchmarks : ObjectSuite
{
    private const int PoolSize = 8;

    [GlobalSetup]
    public void Setup() => CreatePools(PoolSize);

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => ObjectWork.GetReturn(DefaultPool);

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => ObjectWork.GetReturn(TeddStylePool);

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => ObjectWork.GetReturn(StripedPool);

    [Benchmark(Description = PeerNames.StripedObjectPoolAbstract)]
    public void StripedAsObjectPoolCall() => ObjectWork.GetReturn(StripedAsObjectPool);
}
