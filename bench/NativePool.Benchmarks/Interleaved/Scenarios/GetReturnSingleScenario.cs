using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// GetReturnSingle: on one thread, Get one object and Return it, from a pool retaining 8 (prefilled).
/// <c>StripedObjectPool&lt;T&gt;</c> against <c>DefaultObjectPool&lt;T&gt;</c>. Goal ≤ 0.40 and no allocation by ours.
/// </summary>
public static class GetReturnSingleScenario
{
    public const int Retained = 8;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Striped, Default>(
            "GetReturnSingle vs DefaultObjectPool",
            0.40,
            AllocationGoal.OursAllocatesNothing,
            () => new Striped(Prefilled(new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Retained))),
            () => new Default(Prefilled(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), Retained))));

    private static TPool Prefilled<TPool>(TPool pool)
        where TPool : ObjectPool<PooledObject>
    {
        for (int i = 0; i < Retained; i++)
        {
            pool.Return(new PooledObject());
        }

        return pool;
    }

    private readonly struct Striped(StripedObjectPool<PooledObject> pool) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Get());
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
                pool.Return(pool.Get());
            }
        }
    }
}
