using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Two threads, each holding one object at a time (Get, touch, Return), created afresh for every timed batch of each
/// side, so the pool meets new threads all the time: <c>StripedObjectPool&lt;T&gt;</c> against
/// <c>DefaultObjectPool&lt;T&gt;</c>, both retaining 8. One operation is one Get + touch + Return; the batch's time
/// includes starting and joining its two threads. Goal ≤ 0.50.
/// </summary>
public static class FreshThreadsScenario
{
    public const int Threads = 2;
    public const int MaximumRetained = 8;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<OnNewThreads<GetTouchReturnOperation<StripedObjects>>, OnNewThreads<GetTouchReturnOperation<MicrosoftObjects>>>(
            "2 fresh threads x 1 object vs DefaultObjectPool",
            0.50,
            () =>
            {
                var pool = new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained);
                return new(Threads, new(new StripedObjects(pool), pool));
            },
            () => new(Threads, new(new MicrosoftObjects(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained)), null)));
}
