namespace NativePool.Tests.ArrayPool;

/// <summary>
/// A thread's slots in a size-class pool open at its second rent: a thread that rents and returns once and ends (a
/// fresh thread, a short task) leaves its buffer on the stripes for the next thread instead of in a slot that dies with
/// it, and a thread that comes back for more gets the thread tier as before. Counts read from the pool; no timing.
/// </summary>
public sealed class ColdThreadStartTests
{
    [Fact]
    public void EachOfManyThreadsThatRentAndReturnOnceReusesTheBufferTheThreadBeforeItReturned()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        var seen = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        for (int thread = 0; thread < 32; thread++)
        {
            TestThreads.RunOnNewThread(() =>
            {
                byte[] array = pool.Rent(4096);
                lock (seen)
                {
                    seen.Add(array);
                }

                pool.Return(array);
            });
        }

        Assert.Single(seen);
        PoolStatistics statistics = pool.GetStatistics();
        StatisticsAssert.Counts(statistics, allocated: 1, outstanding: 0);
        Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());
        Assert.True(statistics.IsConserved, statistics.ToString());
    }

    [Fact]
    public void AThreadThatComesBackForASecondRentParksItsReturnsInItsSlot()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        TestThreads.RunOnNewThread(() =>
        {
            byte[] first = pool.Rent(4096);
            pool.Return(first);
            Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());

            byte[] second = pool.Rent(4096);
            Assert.Same(first, second);
            pool.Return(second);
            Assert.Equal(1, pool.Engine.CountParkedInThreadTiers());
            Assert.Same(second, pool.Rent(4096));
            pool.Return(second);
        });
    }

    [Fact]
    public void ADoubleReturnOnAColdThreadIsCaughtOnTheStripe()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        TestThreads.RunOnNewThread(() =>
        {
            byte[] array = pool.Rent(4096);
            pool.Return(array);
            Assert.Throws<InvalidOperationException>(() => pool.Return(array));

            // Kept once: the next two rents are two different arrays.
            byte[] again = pool.Rent(4096);
            byte[] other = pool.Rent(4096);
            Assert.NotSame(again, other);
            pool.Return(other);
            pool.Return(again);
        });
    }

    [Fact]
    public void ObjectPoolsOpenTheirThreadSlotAtOnce()
    {
        // The object pool's bound counts its slots, so its threads park from their first return, as before.
        using var pool = new StripedObjectPool<object>(new Microsoft.Extensions.ObjectPool.DefaultPooledObjectPolicy<object>(), 4);
        TestThreads.RunOnNewThread(() =>
        {
            object item = pool.Get();
            pool.Return(item);
            Assert.Same(item, pool.Get());
        });
    }
}
