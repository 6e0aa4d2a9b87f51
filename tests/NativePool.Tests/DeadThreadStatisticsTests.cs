namespace NativePool.Tests;

/// <summary>The counts of a thread that died are folded into the pool's totals once, and counted once.</summary>
public sealed class DeadThreadStatisticsTests
{
    [Fact]
    public void ADeadThreadsCountsAreCountedOnceAfterItsCacheIsFinalized()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        var thread = new Thread(() =>
        {
            for (int i = 0; i < 10; i++)
            {
                pool.Return(pool.Rent(100));
            }
        });
        thread.Start();
        thread.Join();

        // The dead thread's cache is finalized (its counts move to the totals) but the pool's weak table still lists it
        // until the next collection: it must not be counted in both places.
        GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.Allocated);
        Assert.Equal(1, stats.Pooled + stats.Dropped);
        Assert.Equal(0, stats.Outstanding);
        Assert.True(stats.IsConserved, stats.ToString());
    }
}
