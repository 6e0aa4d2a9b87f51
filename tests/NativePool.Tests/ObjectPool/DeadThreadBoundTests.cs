namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A strict pool's bound held by threads that have ended goes back when a return finds the bound spent, not only when
/// a collection finalizes their caches.
/// </summary>
/// <remarks>
/// A collection (forced by a test running beside this one, say) may finalize the ended threads' caches first: that is
/// the other way the bound comes back, with the same counts at the end, so the assertions hold either way. Without
/// the return's own retiring and without a collection, they fail.
/// </remarks>
public sealed class DeadThreadBoundTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(8)]
    public void ThreadsThatParkedTheWholeBoundAndEndedDoNotMakeTheNextThreadAllocateOnEveryGet(int maximumRetained)
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, maximumRetained);

        // Each thread gets a new object, parks it in its slot (one unit of the bound) and ends: the bound is spent.
        for (int t = 0; t < maximumRetained; t++)
        {
            TestThreads.RunOnNewThread(() => pool.Return(pool.Get()));
        }

        // Parked by the ended threads, or (if a collection finalized their caches already) discarded and counted dropped.
        PoolStatistics parked = pool.GetStatistics();
        Assert.Equal(maximumRetained, parked.Pooled + parked.Dropped);

        const int Operations = 10_000;
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < Operations; i++)
            {
                pool.Return(pool.Get());
            }
        });

        // The last thread's first Get creates (the dead threads' objects are out of reach); its first Return finds the
        // bound spent, retires the dead threads' caches (their objects are dropped, their units come back) and parks.
        // Without that, each of its 10 000 Gets would create and each Return would drop (until a collection came).
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(maximumRetained + 1, policy.Created);
        Assert.Equal(maximumRetained + 1, stats.Allocated);
        Assert.Equal(maximumRetained, stats.Dropped);
        Assert.Equal(1, stats.Pooled);
        Assert.Equal(0, stats.Outstanding);
    }

    [Fact]
    public void ALiveThreadsUnitsAreNeverTaken()
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, 1);

        // This thread (alive throughout) parks the pool's only object.
        Thing mine = pool.Get();
        pool.Return(mine);

        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < 100; i++)
            {
                pool.Return(pool.Get());
            }
        });

        // The other thread found the bound held by a live thread: it created and dropped each time, and took nothing.
        Assert.Same(mine, pool.Get());
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(101, stats.Allocated);
        Assert.Equal(100, stats.Dropped);
    }
}
