using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>using var lease = pool.RentScoped()</c> on a <c>StripedObjectPool&lt;T&gt;</c> (retaining 8, prefilled) around a
/// body that can throw (a call on the object), against the same body between a <c>Get</c> and a <c>Return</c> in a
/// <c>finally</c>: the same pool's (goal ≤ 1.05: a scope costs what the try/finally it replaces costs) and
/// <c>DefaultObjectPool&lt;T&gt;</c>'s (goal ≤ 1.00). Each side is a loop of its own over its own pool.
/// </summary>
public static class ObjectScopeScenario
{
    public const int Retained = 8;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Scoped, TryFinally>(
            "Object RentScoped(), body that can throw, vs our Get + Return in a finally",
            1.05,
            AllocationGoal.OursAllocatesNothing,
            () => new(ObjectPools.Striped(Retained)),
            () => new(ObjectPools.Striped(Retained))),
        new InterleavedScenario<Scoped, DefaultTryFinally>(
            "Object RentScoped(), body that can throw, vs DefaultObjectPool Get + Return in a finally",
            1.00,
            AllocationGoal.OursAllocatesNothing,
            () => new(ObjectPools.Striped(Retained)),
            () => new(ObjectPools.Default(Retained))),
    ];

    private readonly struct Scoped(StripedObjectPool<PooledObject> pool) : IOperation
    {
        public void Run(int count)
        {
            StripedObjectPool<PooledObject> objects = pool;
            for (int i = 0; i < count; i++)
            {
                using var lease = objects.RentScoped();
                lease.Value.Touch();
            }
        }
    }

    private readonly struct TryFinally(StripedObjectPool<PooledObject> pool) : IOperation
    {
        public void Run(int count)
        {
            StripedObjectPool<PooledObject> objects = pool;
            for (int i = 0; i < count; i++)
            {
                PooledObject item = objects.Get();
                try
                {
                    item.Touch();
                }
                finally
                {
                    objects.Return(item);
                }
            }
        }
    }

    private readonly struct DefaultTryFinally(DefaultObjectPool<PooledObject> pool) : IOperation
    {
        public void Run(int count)
        {
            DefaultObjectPool<PooledObject> objects = pool;
            for (int i = 0; i < count; i++)
            {
                PooledObject item = objects.Get();
                try
                {
                    item.Touch();
                }
                finally
                {
                    objects.Return(item);
                }
            }
        }
    }
}
