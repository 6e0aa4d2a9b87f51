using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Seed 000, DrainRefillMulti: a pool of <see cref="Count"/> (prefilled) shared by <see cref="ThreadCount"/> threads,
/// each of which repeatedly Gets <c>Count / ThreadCount − 1</c> objects (working on each), then works on and Returns
/// them. <see cref="ThreadCount"/> − 1 of them are background threads that settle for 250 ms; the measured operation
/// is one drain/refill of the benchmark thread. Pairs with no objects per thread (8 over 8 threads) are skipped.
/// Baseline: Microsoft's pool.
/// </summary>
/// <remarks>On a 2-core machine, ThreadCount above 2 measures oversubscription.</remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Objects", "DrainRefillMulti")]
public class DrainRefillMultiBenchmarks
{
    private readonly Random _random = new(0);
    private DefaultObjectPool<PooledObject> _default = null!;
    private TeddStyleObjectPool<PooledObject> _teddStyle = null!;
    private StripedObjectPool<PooledObject> _striped = null!;
    private PooledObject[][] _stores = null!;
    private BackgroundLoad? _load;

    [ParamsSource(nameof(Counts))]
    public int Count { get; set; }

    [ParamsSource(nameof(ThreadCounts))]
    public int ThreadCount { get; set; }

    public static IEnumerable<int> Counts => BenchParams.Select([8, 16, 64, 256, 1024, 2048], [16, 1024]);

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([1, 2, 4, 8], [2, 8]);

    /// <summary>Objects each thread holds at once: the seed's <c>Count / ThreadCount − 1</c>.</summary>
    public static int PerThread(int count, int threadCount) => (count / threadCount) - 1;

    /// <summary>Whether a (Count, ThreadCount) pair does any work; <see cref="BenchConfig"/> filters out the others.</summary>
    public static bool HasWork(int count, int threadCount) => PerThread(count, threadCount) > 0;

    [GlobalSetup(Target = nameof(Default))]
    public void SetupDefault()
    {
        CreateStores();
        var pool = new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Count);
        for (int i = 0; i < Count; i++)
        {
            pool.Return(new PooledObject());
        }

        _default = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (index, random) => DrainRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        CreateStores();
        var pool = new TeddStyleObjectPool<PooledObject>(static () => new PooledObject(), null, Count);
        pool.Prefill(Count);
        _teddStyle = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (index, random) => DrainRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        CreateStores();
        var pool = new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Count);
        for (int i = 0; i < Count; i++)
        {
            pool.Return(new PooledObject());
        }

        _striped = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (index, random) => DrainRefill(pool, _stores[index], random));
    }

    [GlobalSetup(Target = nameof(WorkOnly))]
    public void SetupWorkOnly()
    {
        CreateStores();
        _load = BackgroundLoad.Start(ThreadCount - 1, (index, random) => WorkOnly(_stores[index], random));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _load?.Dispose();
        _teddStyle?.Dispose();
        _striped?.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => DrainRefill(_default, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => DrainRefill(_teddStyle, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => DrainRefill(_striped, _stores[ThreadCount - 1], _random);

    [Benchmark(Description = PeerNames.WorkOnly)]
    public void WorkOnly() => WorkOnly(_stores[ThreadCount - 1], _random);

    private static void DrainRefill(DefaultObjectPool<PooledObject> pool, PooledObject[] store, Random random) =>
        DrainRefill(new MicrosoftPoolAdapter<PooledObject>(pool), store, random);

    private static void DrainRefill(TeddStyleObjectPool<PooledObject> pool, PooledObject[] store, Random random) =>
        DrainRefill(new TeddStylePoolAdapter<PooledObject>(pool), store, random);

    private static void DrainRefill(StripedObjectPool<PooledObject> pool, PooledObject[] store, Random random) =>
        DrainRefill(new StripedPoolAdapter<PooledObject>(pool), store, random);

    /// <summary>The one body every peer runs: take the whole store with work on each, give it all back with work.</summary>
    private static void DrainRefill<TPool>(TPool pool, PooledObject[] store, Random random)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        for (int i = 0; i < store.Length; i++)
        {
            PooledObject item = pool.Take();
            item.SimulateWork(random);
            store[i] = item;
        }

        for (int i = 0; i < store.Length; i++)
        {
            store[i].SimulateWork(random);
            pool.Give(store[i]);
        }
    }

    private static void WorkOnly(PooledObject[] store, Random random)
    {
        for (int i = 0; i < store.Length; i++)
        {
            PooledObject.Work(random);
        }

        for (int i = 0; i < store.Length; i++)
        {
            PooledObject.Work(random);
        }
    }

    private void CreateStores()
    {
        int perThread = Math.Max(0, PerThread(Count, ThreadCount));
        _stores = new PooledObject[ThreadCount][];
        for (int i = 0; i < ThreadCount; i++)
        {
            _stores[i] = new PooledObject[perThread];
        }
    }
}
