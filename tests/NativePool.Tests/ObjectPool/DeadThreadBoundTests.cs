namespace NativePool.Tests.ObjectPool;

/// <summary>
/// Objects parked in the slots of threads that have ended, or of a live thread that is not using the pool, never make
/// another thread build on every Get: a slot holds no unit of the bound, so the other thread's own slot keeps what it
/// returns.
/// </summary>
/// <remarks>
/// The ended threads' objects are dropped when a collection finalizes their caches; the counts are read once it has.
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

        // Each thread gets a new object, parks it in its slot and ends: the objects are out of every other thread's reach.
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

        // Its first Get creates (the ended threads' objects are out of reach); its first Return parks in its own slot,
        // which needs no unit of the bound, and every later Get takes it from there.
        Assert.Equal(maximumRetained + 1, policy.Created);

        // Every ended thread's object is dropped when its cache is finalized: wait for that.
        Finalization.WaitUntil(
            () => pool.GetStatistics().Dropped == maximumRetained,
            () => $"dropped {pool.GetStatistics().Dropped} of the {maximumRetained} ended threads' objects");
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(maximumRetained + 1, stats.Allocated);
        Assert.Equal(1, stats.Pooled);
        Assert.Equal(0, stats.Outstanding);
    }

    [Fact]
    public void ALiveThreadsParkedObjectIsNeverTakenAndAnotherThreadBuildsOnlyOnce()
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

        // The other thread built one object and reused it from its own slot; it took nothing from this thread's.
        Assert.Same(mine, pool.Get());
        Assert.Equal(2, policy.Created);
    }
}
