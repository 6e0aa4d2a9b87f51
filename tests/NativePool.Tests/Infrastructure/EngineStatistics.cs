namespace NativePool.Tests;

/// <summary>An engine's counts read as the facades hand them out, so engine tests can use <see cref="PoolStatistics"/>'s derived figures.</summary>
internal static class EngineStatistics
{
    /// <summary>Reads <paramref name="engine"/>'s counters as a <see cref="PoolStatistics"/>.</summary>
    public static PoolStatistics GetStatistics<T>(this StripedPool<T> engine)
        where T : class => PoolStatistics.From(engine.ReadCounts());
}
