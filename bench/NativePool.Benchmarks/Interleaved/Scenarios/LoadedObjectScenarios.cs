using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// The two-thread object scenarios: one background thread per side loops on that side's pool for as long as the
/// scenario runs, while the measuring thread does the same operations on it. GetReturnMulti: Get → work (33
/// <see cref="Random.Next()"/> calls) → Return on a pool of 8. DrainRefillMulti: a pool of 16 shared by both threads,
/// each draining 7 objects (working on each), then working on and returning them. Against
/// <c>DefaultObjectPool&lt;T&gt;</c>; goal ≤ 0.80 each.
/// </summary>
/// <remarks>
/// Each side's background thread runs only during that side's batches (<see cref="UnderLoadOperation{TPool}"/> resumes
/// and pauses it), so each side is measured beside its own load alone: two busy threads on the 2 cores, as in
/// aspnetcore's benchmark with a ThreadCount of 2. Two more rows, reported without a goal, run the
/// same shapes through <see cref="FreeObjects"/>, a pool that costs next to nothing: the best ratio any pool could reach
/// here, where the simulated work takes most of each operation. That floor is a little kinder than the shape: its
/// objects are built by each thread, apart, while the pools share the prefilled set, built one after another, so two
/// threads' objects can sit on one cache line that both write (set 64 bytes apart, ours read as the floor).
/// </remarks>
public static class LoadedObjectScenarios
{
    private const int GetReturnRetained = 8;
    private const int DrainRefillRetained = 16;
    private const int Threads = 2;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<UnderLoadOperation<StripedObjects>, UnderLoadOperation<MicrosoftObjects>>(
            "GetReturnMulti 2 threads vs DefaultObjectPool",
            0.80,
            () => Striped(GetReturnRetained, drains: false),
            () => Loaded(new MicrosoftObjects(ObjectPools.Default(GetReturnRetained)), GetReturnRetained, drains: false, owner: null)),
        new InterleavedScenario<UnderLoadOperation<StripedObjects>, UnderLoadOperation<MicrosoftObjects>>(
            "DrainRefillMulti 16 × 2 threads vs DefaultObjectPool",
            0.80,
            () => Striped(DrainRefillRetained, drains: true),
            () => Loaded(new MicrosoftObjects(ObjectPools.Default(DrainRefillRetained)), DrainRefillRetained, drains: true, owner: null)),
        new InterleavedScenario<UnderLoadOperation<FreeObjects>, UnderLoadOperation<MicrosoftObjects>>(
            "GetReturnMulti 2 threads through a pool that costs nothing (floor), vs DefaultObjectPool",
            double.PositiveInfinity,
            () => Loaded(default(FreeObjects), GetReturnRetained, drains: false, owner: null),
            () => Loaded(new MicrosoftObjects(ObjectPools.Default(GetReturnRetained)), GetReturnRetained, drains: false, owner: null)),
        new InterleavedScenario<UnderLoadOperation<FreeObjects>, UnderLoadOperation<MicrosoftObjects>>(
            "DrainRefillMulti 16 × 2 threads through a pool that costs nothing (floor), vs DefaultObjectPool",
            double.PositiveInfinity,
            () => Loaded(default(FreeObjects), DrainRefillRetained, drains: true, owner: null),
            () => Loaded(new MicrosoftObjects(ObjectPools.Default(DrainRefillRetained)), DrainRefillRetained, drains: true, owner: null)),
    ];

    private static UnderLoadOperation<StripedObjects> Striped(int retained, bool drains)
    {
        StripedObjectPool<PooledObject> pool = ObjectPools.Striped(retained);
        return Loaded(new StripedObjects(pool), retained, drains, pool);
    }

    private static UnderLoadOperation<TPool> Loaded<TPool>(TPool pool, int retained, bool drains, IDisposable? owner)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        int perThread = DrainRefillMultiBenchmarks.PerThread(retained, Threads);
        PooledObject[]? store = drains ? new PooledObject[perThread] : null;
        PooledObject[][] stores = [.. Enumerable.Range(0, Threads - 1).Select(_ => new PooledObject[perThread])];
        BackgroundLoad load = drains
            ? BackgroundLoad.Start(Threads - 1, (index, random) => ObjectWork.DrainWorkRefill(pool, stores[index], random))
            : BackgroundLoad.Start(Threads - 1, (_, random) => ObjectWork.GetWorkReturn(pool, random));
        load.Pause();
        return new UnderLoadOperation<TPool>(pool, store, load, owner);
    }
}
