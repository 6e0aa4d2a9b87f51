using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Seed 000, GetReturnMulti: <see cref="ThreadCount"/> − 1 background threads loop Get → work → Return on the pool under
/// test while the measured thread does the same; the measured operation is one Get → work (33 <see cref="Random.Next()"/>
/// calls) → Return. Pool of 8, prefilled; the background threads settle for 250 ms first. Baseline: Microsoft's pool.
/// </summary>
/// <remarks>
/// The work-only row runs the same threads and work without any pool: the difference between a pool's row and it is
/// what the pool costs under that load. On a 2-core machine, ThreadCount above 2 measures oversubscription.
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Objects", "GetReturnMulti")]
public class GetReturnMultiBenchmarks
{
    private const int PoolSize = 8;

    private readonly Random _random = new(0);
    private DefaultObjectPool<PooledObject> _default = null!;
    private TeddStyleObjectPool<PooledObject> _teddStyle = null!;
    private StripedObjectPool<PooledObject> _striped = null!;
    private BackgroundLoad? _load;

    [ParamsSource(nameof(ThreadCounts))]
    public int ThreadCount { get; set; }

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([1, 2, 4, 8], [1, 4]);

    [GlobalSetup(Target = nameof(Default))]
    public void SetupDefault()
    {
        var pool = new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), PoolSize);
        for (int i = 0; i < PoolSize; i++)
        {
            pool.Return(new PooledObject());
        }

        _default = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (_, random) =>
        {
            PooledObject item = pool.Get();
            item.SimulateWork(random);
            pool.Return(item);
        });
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        var pool = new TeddStyleObjectPool<PooledObject>(static () => new PooledObject(), null, PoolSize);
        pool.Prefill(PoolSize);
        _teddStyle = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (_, random) =>
        {
            PooledObject item = pool.Allocate();
            item.SimulateWork(random);
            pool.Free(item);
        });
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        var pool = new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), PoolSize);
        for (int i = 0; i < PoolSize; i++)
        {
            pool.Return(new PooledObject());
        }

        _striped = pool;
        _load = BackgroundLoad.Start(ThreadCount - 1, (_, random) =>
        {
            PooledObject item = pool.Get();
            item.SimulateWork(random);
            pool.Return(item);
        });
    }

    [GlobalSetup(Target = nameof(WorkOnly))]
    public void SetupWorkOnly() =>
        _load = BackgroundLoad.Start(ThreadCount - 1, static (_, random) => PooledObject.Work(random));

    [GlobalCleanup]
    public void Cleanup()
    {
        _load?.Dispose();
        _teddStyle?.Dispose();
        _striped?.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public int Default()
    {
        PooledObject item = _default.Get();
        int result = item.SimulateWork(_random);
        _default.Return(item);
        return result;
    }

    [Benchmark(Description = PeerNames.TeddStyle)]
    public int TeddStyle()
    {
        PooledObject item = _teddStyle.Allocate();
        int result = item.SimulateWork(_random);
        _teddStyle.Free(item);
        return result;
    }

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public int Striped()
    {
        PooledObject item = _striped.Get();
        int result = item.SimulateWork(_random);
        _striped.Return(item);
        return result;
    }

    [Benchmark(Description = PeerNames.WorkOnly)]
    public int WorkOnly() => PooledObject.Work(_random);
}
