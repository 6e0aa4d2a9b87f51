using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;

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
        new InterleavedScenario<OnNewThreads<Striped>, OnNewThreads<Default>>(
            "2 fresh threads x 1 object vs DefaultObjectPool",
            0.50,
            () => new OnNewThreads<Striped>(Threads, new Striped(new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained))),
            () => new OnNewThreads<Default>(Threads, new Default(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained))));

    private readonly struct Striped(StripedObjectPool<PooledObject> pool) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                PooledObject item = pool.Get();
                item.Touch();
                pool.Return(item);
            }
        }

        public void Dispose() => pool.Dispose();
    }

    private readonly struct Default(DefaultObjectPool<PooledObject> pool) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                PooledObject item = pool.Get();
                item.Touch();
                pool.Return(item);
            }
        }
    }
}
