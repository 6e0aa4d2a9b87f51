namespace NativePool.Tests.ObjectPool;

/// <summary>The engine's <c>DrainThreadCaches</c>, which object-pool disposal uses to reach other threads' slots.</summary>
public sealed class ThreadCacheDrainTests
{
    [Fact]
    public void DrainingThreadCachesTakesTheItemsParkedOnOtherLiveThreads()
    {
        var discarded = new List<object>();
        var settings = new StripedPoolSettings
        {
            ClassCount = 1,
            CapacityPerStripe = [4],
            StripeCount = 1,
            TrimmingEnabled = false,
        };
        var pool = new StripedPool<object>(settings, static _ => new object(), item => { lock (discarded) { discarded.Add(item); } });
        var parked = new object[3];
        using var ready = new CountdownEvent(parked.Length);
        using var release = new ManualResetEventSlim();
        Thread[] threads = Enumerable.Range(0, parked.Length).Select(i => new Thread(() =>
        {
            parked[i] = new object();
            pool.Return(0, parked[i]);
            ready.Signal();
            release.Wait();
        })).ToArray();
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        ready.Wait();
        try
        {
            Assert.Equal(parked.Length, pool.GetStatistics().Pooled);

            int removed = pool.DrainThreadCaches();

            Assert.Equal(parked.Length, removed);
            Assert.Equal(parked.ToHashSet(), discarded.ToHashSet());
            PoolStatistics statistics = pool.GetStatistics();
            Assert.Equal(0, statistics.Pooled);
            Assert.Equal(parked.Length, statistics.Trimmed);
        }
        finally
        {
            release.Set();
            foreach (Thread thread in threads)
            {
                thread.Join();
            }
        }
    }

    [Fact]
    public void AFullStripeStillReportsTheItemOnItsTopAsADuplicate()
    {
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [1], StripeCount = 1, ThreadSlotTokens = 0, TrimmingEnabled = false };
        var pool = new StripedPool<object>(settings, static _ => new object());
        object item = pool.Rent(0);

        Assert.Equal(ReturnResult.Stored, pool.Return(0, item));
        Assert.Equal(ReturnResult.Duplicate, pool.Return(0, item));
        Assert.Equal(ReturnResult.Dropped, pool.Return(0, new object()));
    }
}
