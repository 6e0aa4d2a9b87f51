using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// GetReturnSingle: on one thread, Get one object and Return it, from a pool retaining 8 (prefilled).
/// <c>StripedObjectPool&lt;T&gt;</c> against <c>DefaultObjectPool&lt;T&gt;</c>. Goal ≤ 0.40 and no allocation by ours.
/// </summary>
public static class GetReturnSingleScenario
{
    public const int Retained = 8;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<GetReturnOperation<StripedObjects>, GetReturnOperation<MicrosoftObjects>>(
            "GetReturnSingle vs DefaultObjectPool",
            0.40,
            AllocationGoal.OursAllocatesNothing,
            () =>
            {
                StripedObjectPool<PooledObject> pool = ObjectPools.Striped(Retained);
                return new(new StripedObjects(pool), pool);
            },
            () => new(new MicrosoftObjects(ObjectPools.Default(Retained)), null));
}
