using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// DrainRefillMulti (aspnetcore's ObjectPool micro-benchmark): a pool of <see cref="Count"/> (prefilled) shared by
/// <see cref="ThreadCount"/> threads, each of which repeatedly Gets <c>Count / ThreadCount − 1</c> objects (working on
/// each), then works on and Returns them. <see cref="ThreadCount"/> − 1 of them are background threads that settle for
/// 250 ms; the measured operation is one drain/refill of the benchmark thread. Pairs with no objects per thread (8 over
/// 8 threads) are skipped. Baseline: Microsoft's pool.
/// </summary>
/// <remarks>On a 2-core machine, ThreadCount above 2 measures oversubscription.</remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Objects", "DrainRefillMulti")]
public class DrainRefillMultiBenchmarks : ObjectSuite
{
    private readonly Random _random = new(0);
    private PooledObject[][] _stores = null!;

    [ParamsSource(nameof(Counts))]
    public int Count { get; set; }

    [ParamsSource(nameof(ThreadCounts))]
    public int ThreadCount { get; set; }

    public static IEnumerable<int> Counts => BenchParams.Select([8, 16, 64, 256, 1024, 2048], [16, 1024]);

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([1, 2, 4, 8], [2, 8]);

    /// <summary>Objects each thread holds at once: <c>Count / ThreadCount − 1</c>.</summary>
    public static int PerThread(int count, int threadCount) => (count / threadCount) - 1;

    /// <summary>Whether a (Count, ThreadCount) pair does any work; <see cref="BenchConfig"/> filters out the others.</summary>
    public static bool HasWork(int count, int threadCount) => PerThread(count, threadCount) > 0;

    [GlobalSetup(Target = nameof(Default))]
    public void SetupDefault()
    {
        CreateStores();
        MicrosoftObjects pool = DefaultPool;
        StartLoad(ThreadCount - 1, (index, random) => ObjectWork.DrainWorkRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        CreateStores();
        TeddStyleObjects pool = TeddStylePool;
        StartLoad(ThreadCount - 1, (index, random) => ObjectWork.DrainWorkRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        CreateStores();
        StripedObjects pool = StripedPool;
        StartLoad(ThreadCount - 1, (index, random) => ObjectWork.DrainWorkRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(WorkOnly))]
    public void SetupWorkOnly()
    {
        CreateStores();
        StartLoad(ThreadCount - 1, (index, random) => ObjectWork.WorkOnly(_stores[index], random));
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => ObjectWork.DrainWorkRefill(DefaultPool, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => ObjectWork.DrainWorkRefill(TeddStylePool, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => ObjectWork.DrainWorkRefill(StripedPool, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.WorkOnly)]
    public void WorkOnly() => ObjectWork.WorkOnly(_stores[ThreadCount - 1], _random);

    /// <summary>The pools (retaining <see cref="Count"/>) and one store per thread.</summary>
    private void CreateStores()
    {
        CreatePools(Count);
        int perThread = Math.Max(0, PerThread(Count, ThreadCount));
        _stores = new PooledObject[ThreadCount][];
        for (int i = 0; i < ThreadCount; i++)
        {
            _stores[i] = new PooledObject[perThread];
        }
    }
}
