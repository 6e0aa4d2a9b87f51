namespace NativePool.Tests;

/// <summary>The counts of a thread that died are folded into the pool's totals once, and counted once.</summary>
public sealed class DeadThreadStatisticsTests
{
    [Fact]
    public void ADeadThreadsCountsAreCountedOnceAfterItsCacheIsFinalized()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < 10; i++)
            {
                pool.Return(pool.Rent(100));
            }
        });

        // The dead thread's cache is finalized (its counts move to the totals, its parked array counts as dropped) while
        // the pool's weak table may still list it until a later collection: it must not be counted in both places.
        Finalization.WaitUntil(
            () => pool.Engine.CountLiveThreadCaches() == 0,
            () => $"{pool.Engine.CountLiveThreadCaches()} thread caches not finalized");
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, dropped: 1, outstanding: 0);
    }
}
