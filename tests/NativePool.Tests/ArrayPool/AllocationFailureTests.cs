namespace NativePool.Tests.ArrayPool;

/// <summary>A rent whose allocation fails must leave the statistics as if it never happened.</summary>
public class AllocationFailureTests
{
    [Fact]
    public void AnOverMaximumRentThatRunsOutOfMemoryIsNotCounted()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        Assert.Throws<OutOfMemoryException>(() => pool.Rent(int.MaxValue));

        PoolStatistics statistics = pool.GetStatistics();
        StatisticsAssert.Counts(statistics, allocated: 0, outstanding: 0);
        Assert.True(statistics.IsConserved, statistics.ToString());
    }

    [Fact]
    public void AnEngineRentWhoseAllocationThrowsIsNotCounted()
    {
        // No array length inside the classes fails to allocate on demand, so this drives the engine's miss path directly.
        bool fail = true;
        var engine = new StripedPool<object>(
            new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false },
            _ => fail ? throw new InsufficientMemoryException() : new object());

        TestThreads.RunOnNewThread(() =>
        {
            // Once on a thread without a cache (the cache is created on the way) and once with one.
            Assert.Throws<InsufficientMemoryException>(() => engine.Rent(0));
            Assert.Throws<InsufficientMemoryException>(() => engine.Rent(0));
            PoolStatistics statistics = engine.GetStatistics();
            StatisticsAssert.Counts(statistics, allocated: 0, outstanding: 0);
            Assert.True(statistics.IsConserved, statistics.ToString());

            fail = false;
            object item = engine.Rent(0);
            engine.Return(0, item);
            statistics = engine.GetStatistics();
            Assert.Equal(1, statistics.Allocated);
            Assert.Equal(1, statistics.Pooled);
            Assert.Equal(0, statistics.Outstanding);
            Assert.True(statistics.IsConserved, statistics.ToString());
        });
    }
}
