namespace NativePool.Tests.ObjectPool;

/// <summary>The engine's shutdown, which every disposable pool uses to reach other threads' slots and magazines.</summary>
public sealed class ThreadCacheDrainTests
{
    [Fact]
    public void ShutdownDiscardsTheItemsParkedOnOtherLiveThreadsOnce()
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

        // Each thread parks one item in its slot and stays alive while the shutdown drains it.
        using StartedThreads threads = TestThreads.Start(parked.Length, (i, _) =>
        {
            parked[i] = new object();
            pool.Return(0, parked[i]);
        });
        threads.WaitForBodies();

        Assert.Equal(parked.Length, pool.GetStatistics().Pooled);

        Assert.True(pool.Shutdown());
        Assert.False(pool.Shutdown());

        Assert.Equal(parked.Length, discarded.Count);
        Assert.Equal(parked.ToHashSet(), discarded.ToHashSet());
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 0, trimmed: parked.Length);
    }

    [Fact]
    public void AnItemTakenByARentThatRacedTheShutdownIsDiscardedOnlyOnce()
    {
        var discarded = new List<object>();
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var pool = new StripedPool<object>(settings, static _ => new object(), item => { lock (discarded) { discarded.Add(item); } });
        var item = new object();
        pool.Return(0, item);

        // The owner read its slot just before the drain took the same item: both hold it; the owner's raced path and
        // the drain must discard it once between them.
        object taken = pool.Rent(0);
        pool.Return(0, taken);
        pool.Shutdown();
        pool.RentRacedShutdown(taken);

        Assert.Single(discarded);
        Assert.Same(item, discarded[0]);
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
