namespace NativePool.Tests;

/// <summary>Checks a pool's counters in one call: each counter given is compared, each left out is not checked.</summary>
internal static class StatisticsAssert
{
    /// <summary>Asserts the given counters of <paramref name="statistics"/>, in the order of the parameters.</summary>
    public static void Counts(
        PoolStatistics statistics,
        long? allocated = null,
        long? pooled = null,
        long? dropped = null,
        long? trimmed = null,
        long? outstanding = null)
    {
        AssertCounter(allocated, statistics.Allocated, nameof(PoolStatistics.Allocated), statistics);
        AssertCounter(pooled, statistics.Pooled, nameof(PoolStatistics.Pooled), statistics);
        AssertCounter(dropped, statistics.Dropped, nameof(PoolStatistics.Dropped), statistics);
        AssertCounter(trimmed, statistics.Trimmed, nameof(PoolStatistics.Trimmed), statistics);
        AssertCounter(outstanding, statistics.Outstanding, nameof(PoolStatistics.Outstanding), statistics);
    }

    private static void AssertCounter(long? expected, long actual, string name, PoolStatistics statistics)
    {
        if (expected is { } value && value != actual)
        {
            Assert.Fail($"{name}: expected {value}, got {actual} ({statistics}).");
        }
    }
}
