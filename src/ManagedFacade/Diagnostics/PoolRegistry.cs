using System.Collections.Generic;

namespace NativePool;

/// <summary>
/// Every pool created in the process, held weakly, so the metrics enumerate the live pools when they are observed
/// without keeping any pool alive.
/// </summary>
internal static class PoolRegistry
{
    private static readonly WeakList<IObservablePool> s_pools = new();

    /// <summary>Adds <paramref name="pool"/> and makes sure the default meter exists (so <c>dotnet-counters</c> sees it).</summary>
    /// <param name="pool">A pool whose name and kind are set.</param>
    public static void Register(IObservablePool pool)
    {
        lock (s_pools)
        {
            s_pools.Add(pool);
        }

        NativePoolMetrics.EnsureDefaultMeter();
    }

    /// <summary>Removes <paramref name="pool"/> (a disposed pool stops reporting).</summary>
    /// <param name="pool">The pool.</param>
    public static void Unregister(IObservablePool pool)
    {
        lock (s_pools)
        {
            s_pools.Remove(pool);
        }
    }

    /// <summary>The pools alive now.</summary>
    /// <returns>A new list.</returns>
    public static List<IObservablePool> GetLivePools()
    {
        var live = new List<IObservablePool>();
        lock (s_pools)
        {
            s_pools.CopyLiveTo(live);
        }

        return live;
    }
}
