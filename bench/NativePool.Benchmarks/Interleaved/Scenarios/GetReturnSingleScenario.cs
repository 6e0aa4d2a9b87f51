using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// GetReturnSingle: on one thread, Get one object and Return it, from a pool retaining 8 (prefilled).
/// <c>StripedObjectPool&lt;T&gt;</c> against <c>DefaultObjectPool&lt;T&gt;</c>, in both call shapes: each pool through its
/// own type, and each through <c>ObjectPool&lt;T&gt;</c> (a dependency-injection consumer's field). Every side has an
/// adapter type of its own, so no loop method serves two pools. Goal ≤ 0.40 and no allocation by ours. The floor row runs
/// the same get and return through <see cref="FreeObjects"/> (a stack per thread in thread statics): the best a pool that
/// finds the calling thread's objects through a thread static could reach.
/// </summary>
public static class GetReturnSingleScenario
{
    public const int Retained = 8;

    public static IEnumerable<InterleavedScenario> Create()
    {
        yield return new InterleavedScenario<GetReturnOperation<StripedObjects>, GetReturnOperation<MicrosoftObjectsConcrete>>(
            "GetReturnSingle vs DefaultObjectPool",
            0.40,
            AllocationGoal.OursAllocatesNothing,
            () =>
            {
                StripedObjectPool<PooledObject> pool = ObjectPools.Striped(Retained);
                return new(new StripedObjects(pool), pool);
            },
            () => new(new MicrosoftObjectsConcrete(ObjectPools.Default(Retained)), null));
        yield return new InterleavedScenario<GetReturnOperation<StripedObjectsThroughBase>, GetReturnOperation<MicrosoftObjects>>(
            "GetReturnSingle through the ObjectPool base vs DefaultObjectPool",
            0.40,
            AllocationGoal.OursAllocatesNothing,
            () =>
            {
                StripedObjectPool<PooledObject> pool = ObjectPools.Striped(Retained);
                return new(new StripedObjectsThroughBase(pool), pool);
            },
            () => new(new MicrosoftObjects(ObjectPools.Default(Retained)), null));
        yield return new InterleavedScenario<GetReturnOperation<FreeObjects>, GetReturnOperation<MicrosoftObjectsConcrete>>(
            "GetReturnSingle through a pool that costs nothing (floor), vs DefaultObjectPool",
            double.PositiveInfinity,
            AllocationGoal.OursAllocatesNothing,
            () => new(default, null),
            () => new(new MicrosoftObjectsConcrete(ObjectPools.Default(Retained)), null));
    }
}
