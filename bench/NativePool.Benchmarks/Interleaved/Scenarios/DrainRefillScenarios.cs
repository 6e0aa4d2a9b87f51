using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// DrainRefillSingle: on one thread, Get Count objects from a pool retaining Count (prefilled), then Return them all.
/// <c>StripedObjectPool&lt;T&gt;</c> against <c>DefaultObjectPool&lt;T&gt;</c>, both with MaximumRetained = Count, in both
/// call shapes (each pool through its own type, and each through <c>ObjectPool&lt;T&gt;</c>), every side with an adapter
/// type of its own. One operation is one whole drain and refill. Goal ≤ 0.70 and no allocation by ours. The floor rows run
/// the same drain and refill through <see cref="FreeObjects"/>, which costs next to nothing: the best any pool could reach.
/// </summary>
public static class DrainRefillScenarios
{
    private static readonly int[] s_counts = [8, 256, 2048];

    public static IEnumerable<InterleavedScenario> Create()
    {
        foreach (int count in s_counts)
        {
            yield return new InterleavedScenario<DrainRefillOperation<StripedObjects>, DrainRefillOperation<MicrosoftObjectsConcrete>>(
                $"DrainRefillSingle {count} vs DefaultObjectPool",
                0.70,
                AllocationGoal.OursAllocatesNothing,
                () =>
                {
                    StripedObjectPool<PooledObject> pool = ObjectPools.Striped(count);
                    return new(new StripedObjects(pool), new PooledObject[count], pool);
                },
                () => new(new MicrosoftObjectsConcrete(ObjectPools.Default(count)), new PooledObject[count], null));
        }

        foreach (int count in s_counts)
        {
            yield return new InterleavedScenario<DrainRefillOperation<StripedObjectsThroughBase>, DrainRefillOperation<MicrosoftObjects>>(
                $"DrainRefillSingle {count} through the ObjectPool base vs DefaultObjectPool",
                0.70,
                AllocationGoal.OursAllocatesNothing,
                () =>
                {
                    StripedObjectPool<PooledObject> pool = ObjectPools.Striped(count);
                    return new(new StripedObjectsThroughBase(pool), new PooledObject[count], pool);
                },
                () => new(new MicrosoftObjects(ObjectPools.Default(count)), new PooledObject[count], null));
        }

        foreach (int count in s_counts)
        {
            yield return new InterleavedScenario<DrainRefillOperation<FreeObjects>, DrainRefillOperation<MicrosoftObjectsConcrete>>(
                $"DrainRefillSingle {count} through a pool that costs nothing (floor), vs DefaultObjectPool",
                double.PositiveInfinity,
                AllocationGoal.OursAllocatesNothing,
                () => new(default, new PooledObject[count], null),
                () => new(new MicrosoftObjectsConcrete(ObjectPools.Default(count)), new PooledObject[count], null));
        }
    }
}
