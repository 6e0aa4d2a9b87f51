namespace NativePool;

/// <summary>The engine's counts as the public <see cref="PoolStatistics"/> snapshot.</summary>
internal static class EngineStatistics
{
    /// <summary>Reads <paramref name="engine"/>'s counters (see <see cref="StripedPool{T}.ReadCounts()"/>).</summary>
    public static PoolStatistics GetStatistics<T>(this StripedPool<T> engine)
        where T : class => PoolStatistics.From(engine.ReadCounts());
}
