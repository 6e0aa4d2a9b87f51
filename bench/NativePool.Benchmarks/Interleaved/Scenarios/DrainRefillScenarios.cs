using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// DrainRefillSingle: on one thread, Get Count objects from a pool retaining Count (prefilled), then Return them all.
/// <c>StripedObjectPool&lt;T&gt;</c> against <c>DefaultObjectPool&lt;T&gt;</c>, both with MaximumRetained = Count.
/// One operation is one whole drain and refill. Goal ≤ 0.70 and no allocation by ours.
/// </summary>
public static class DrainRefillScenarios
{
    private static readonly int[] s_counts = [8, 256, 2048];

    public static IEnumerable<InterleavedScenario> Create() =>
        s_counts.Select(count => new InterleavedScenario<Striped, Default>(
            $"DrainRefillSingle {count} vs DefaultObjectPool",
            0.70,
            AllocationGoal.OursAllocatesNothing,
            () => new Striped(Prefilled(new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), count), count), new PooledObject[count]),
            () => new Default(Prefilled(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), count), count), new PooledObject[count])));

    private static TPool Prefilled<TPool>(TPool pool, int count)
        where TPool : ObjectPool<PooledObject>
    {
        for (int i = 0; i < count; i++)
        {
            pool.Return(new PooledObject());
        }

        return pool;
    }

    private readonly struct Striped(StripedObjectPool<PooledObject> pool, PooledObject[] store) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            for (int n = 0; n < count; n++)
            {
                for (int i = 0; i < store.Length; i++)
                {
                    store[i] = pool.Get();
                }

                for (int i = 0; i < store.Length; i++)
                {
                    pool.Return(store[i]);
                }
            }
        }

        public void Dispose() => pool.Dispose();
    }

    private readonly struct Default(DefaultObjectPool<PooledObject> pool, PooledObject[] store) : IOperation
    {
        public void Run(int count)
        {
            for (int n = 0; n < count; n++)
            {
                for (int i = 0; i < store.Length; i++)
                {
                    store[i] = pool.Get();
                }

                for (int i = 0; i < store.Length; i++)
                {
                    pool.Return(store[i]);
                }
            }
        }
    }
}
