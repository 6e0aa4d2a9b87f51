using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>The object pools every object scenario compares, created prefilled with <see cref="PooledObject"/>s.</summary>
public static class ObjectPools
{
    /// <summary>Microsoft's pool retaining <paramref name="retained"/>, holding that many.</summary>
    public static DefaultObjectPool<PooledObject> Default(int retained) =>
        Prefilled(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), retained), retained);

    /// <summary>Ours retaining <paramref name="retained"/>, holding that many.</summary>
    public static StripedObjectPool<PooledObject> Striped(int retained) =>
        Prefilled(new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), retained), retained);

    /// <summary>The Tedd-style pool of <paramref name="retained"/>, holding that many.</summary>
    public static TeddStyleObjectPool<PooledObject> TeddStyle(int retained)
    {
        var pool = new TeddStyleObjectPool<PooledObject>(static () => new PooledObject(), null, retained);
        pool.Prefill(retained);
        return pool;
    }

    private static TPool Prefilled<TPool>(TPool pool, int count)
        where TPool : ObjectPool<PooledObject>
    {
        for (int i = 0; i < count; i++)
        {
            pool.Return(new PooledObject());
        }

        return pool;
    }
}
