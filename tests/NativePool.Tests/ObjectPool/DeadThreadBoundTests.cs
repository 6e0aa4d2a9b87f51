namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A strict pool's bound held by threads that have ended goes back when a return finds the bound spent, not only when
/// a collection finalizes their caches.
/// </summary>
/// <remarks>
/// A collection (forced by a test running beside this one, say) may finalize the ended threads' caches first: that is
/// the other way the bound comes back, with the same counts once the finalizers have run, so the assertions hold either
/// way. Without the return's own retiring and without a collection, the last thread creates on every Get.
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

        Assert.Equal(maximumRetained, policy.Created);

        // This thread (alive to the end, so its own cache is never finalized) now uses the pool.
        const int Operations = 10_000;
        for (int i = 0; i < Operations; i++)
        {
            pool.Return(pool.Get());
        }

        // Its first Get creates (the ended threads' objects are out of reach); its first Return finds the bound spent,
        // retires the ended threads' caches (their objects are dropped, their units come back) and parks. Without that,
        // each of its 10 000 Gets would create and each Return would drop (until a collection came).
        Assert.Equal(maximumRetained + 1, policy.Created);

        // Every ended thread's object is dropped, by the return's retiring or by a finalizer. A cache that a collection
        // has already taken out of the pool's weak table is counted only once its finalizer has run: wait for that.
        Finalization.WaitUntil(
            () => pool.GetStatistics().Dropped == maximumRetained,
            () => $"dropped {pool.GetStatistics().Dropped} of the {maximumRetained} ended threads' objects");
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(maximumRetained + 1, stats.Allocated);
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
