using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// GetReturnMulti (aspnetcore's ObjectPool micro-benchmark): <see cref="ThreadCount"/> − 1 background threads loop
/// Get → work → Return on the pool under test while the measured thread does the same; the measured operation is one
/// Get → work (33 <see cref="Random.Next()"/> calls) → Return. Pool of 8, prefilled; the background threads settle for
/// 250 ms first. Baseline: Microsoft's pool.
/// </summary>
/// <remarks>
/// The work-only row runs the same threads and work without any pool: the difference between a pool's row and it is
/// what the pool costs under that load. On a 2-core machine, ThreadCount above 2 measures oversubscription.
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Objects", "GetReturnMulti")]
public class GetReturnMultiBenchmarks : ObjectSuite
{
    private const int PoolSize = 8;

    private readonly Random _random = new(0);

    [ParamsSource(nameof(ThreadCounts))]
    public int ThreadCount { get; set; }

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([1, 2, 4, 8], [1, 4]);

    [GlobalSetup(Target = nameof(Default))]
    public void SetupDefault()
    {
        CreatePools(PoolSize);
        MicrosoftObjects pool = DefaultPool;
        StartLoad(ThreadCount - 1, (_, random) => ObjectWork.GetWorkReturn(pool, random));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        CreatePools(PoolSize);
        TeddStyleObjects pool = TeddStylePool;
        StartLoad(ThreadCount - 1, (_, random) => ObjectWork.GetWorkReturn(pool, random));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        CreatePools(PoolSize);
        StripedObjects pool = StripedPool;
        StartLoad(ThreadCount - 1, (_, random) => ObjectWork.GetWorkReturn(pool, random));
    }

    [GlobalSetup(Target = nameof(WorkOnly))]
    public void SetupWorkOnly() => StartLoad(ThreadCount - 1, static (_, random) => PooledObject.Work(random));

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public int Default() => ObjectWork.GetWorkReturn(DefaultPool, _random);

    [Benchmark(Description = PeerNames.TeddStyle)]
    public int TeddStyle() => ObjectWork.GetWorkReturn(TeddStylePool, _random);

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public int Striped() => ObjectWork.GetWorkReturn(StripedPool, _random);

    [Benchmark(Description = PeerNames.WorkOnly)]
    public int WorkOnly() => PooledObject.Work(_random);
}
