using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// The bodies of the object scenarios, written once: the BenchmarkDotNet suites, their background threads and the
/// interleaved runner all call these, each with its pool as an adapter struct (so every call is direct).
/// </summary>
public static class ObjectWork
{
    /// <summary>One Get and one Return.</summary>
    public static void GetReturn<TPool>(TPool pool)
        where TPool : struct, IObjectPoolAdapter<PooledObject> => pool.Give(pool.Take());

    /// <summary>One Get, the least use of the object (one write), one Return.</summary>
    public static void GetTouchReturn<TPool>(TPool pool)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        PooledObject item = pool.Take();
        item.Touch();
        pool.Give(item);
    }

    /// <summary>One Get, the simulated work on the object, one Return; the work's result.</summary>
    public static int GetWorkReturn<TPool>(TPool pool, Random random)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        PooledObject item = pool.Take();
        int result = item.SimulateWork(random);
        pool.Give(item);
        return result;
    }

    /// <summary>Gets <paramref name="store"/>'s length of objects, then returns them all.</summary>
    public static void DrainRefill<TPool>(TPool pool, PooledObject[] store)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        for (int i = 0; i < store.Length; i++)
        {
            store[i] = pool.Take();
        }

        for (int i = 0; i < store.Length; i++)
        {
            pool.Give(store[i]);
        }
    }

    /// <summary>As <see cref="DrainRefill{TPool}"/>, with the simulated work on each object after its Get and before its Return.</summary>
    public static void DrainWorkRefill<TPool>(TPool pool, PooledObject[] store, Random random)
        where TPool : struct, IObjectPoolAdapter<PooledObject>
    {
        for (int i = 0; i < store.Length; i++)
        {
            PooledObject item = pool.Take();
            item.SimulateWork(random);
            store[i] = item;
        }

        for (int i = 0; i < store.Length; i++)
        {
            store[i].SimulateWork(random);
            pool.Give(store[i]);
        }
    }

    /// <summary>The work of <see cref="DrainWorkRefill{TPool}"/> without any pool (the work-only rows).</summary>
    public static void WorkOnly(PooledObject[] store, Random random)
    {
        for (int i = 0; i < store.Length; i++)
        {
            PooledObject.Work(random);
        }

        for (int i = 0; i < store.Length; i++)
        {
            PooledObject.Work(random);
        }
    }
}
