using System.Collections.Generic;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Every pool created in the process, held weakly, so the metrics enumerate the live pools when they are observed without keeping any pool alive.</summary>
internal static class PoolRegistry
{
    private static readonly WeakList<IObservablePool> s_pools = new();

    /// <summary>Each registered pool's instance number, boxed once so a measurement's tag allocates nothing.</summary>
    private static readonly ConditionalWeakTable<IObservablePool, object> s_instances = new();

    /// <summary>The last instance number given out; guarded by the lock on <see cref="s_pools"/>.</summary>
    private static long s_lastInstance;

    /// <summary>Adds <paramref name="pool"/> (name and kind set) with the next instance number, and makes sure the default meter exists, for <c>dotnet-counters</c>.</summary>
    public static void Register(IObservablePool pool)
    {
        lock (s_pools)
        {
            s_pools.Add(pool);
            s_instances.AddOrUpdate(pool, ++s_lastInstance);
        }

        NativePoolMetrics.EnsureDefaultMeter();
    }

    /// <summary>Removes <paramref name="pool"/> (a disposed pool stops reporting).</summary>
    public static void Unregister(IObservablePool pool) => s_pools.Remove(pool);

    /// <summary>The instance number of <paramref name="pool"/>, boxed: 1, 2, … in registration order, never reused, so no two pools share one; 0 if never registered.</summary>
    public static object GetInstance(IObservablePool pool) => s_instances.TryGetValue(pool, out object? instance) ? instance : 0L;

    /// <summary>A new list of the pools alive now.</summary>
    public static List<IObservablePool> GetLivePools() => s_pools.Snapshot();
}
