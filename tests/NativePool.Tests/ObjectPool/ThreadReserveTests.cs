namespace NativePool.Tests.ObjectPool;

/// <summary>
/// Each thread of an object pool keeps two objects outside the stripes, in its slot and in a reserve place behind it:
/// a caller holding two at a time never touches the stripes, one thread alone still keeps exactly the bound, and trim,
/// dispose and statistics reach the reserve as they reach the slot. Counts are read from the pool; trim passes are
/// driven by the test with an injected clock.
/// </summary>
public sealed class ThreadReserveTests
{
    private static readonly TimeSpan s_trimAge = TimeSpan.FromSeconds(60);

    [Fact]
    public void AThreadHoldingTwoAtATimeKeepsBothInItsSlotAndReserveAndNeverMakesTheStripes()
    {
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing a = pool.Get(), b = pool.Get();
        for (int i = 0; i < 1000; i++)
        {
            pool.Return(b);
            pool.Return(a);

            // The slot holds the last return, the reserve the one before: they come back in that order.
            Assert.Same(a, pool.Get());
            Assert.Same(b, pool.Get());
        }

        pool.Return(b);
        pool.Return(a);

        // No return reached the stripes, so none were ever made; another thread reaches nothing and builds its own.
        Assert.Null(pool.Engine.GetStripes(0));
        Thing? other = null;
        TestThreads.RunOnNewThread(() => other = pool.Get());
        Assert.NotSame(a, other);
        Assert.NotSame(b, other);
        Assert.Equal(3, policy.Created);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 3, pooled: 2, dropped: 0, outstanding: 1);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(8)]
    public void OneThreadKeepsExactlyTheBoundAsMicrosoftsPoolDoes(int maximumRetained)
    {
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = maximumRetained, TrimmingEnabled = false });
        var peer = new Microsoft.Extensions.ObjectPool.DefaultObjectPool<Thing>(new CountingPolicy<Thing>(), maximumRetained);
        Thing[] things = [.. Enumerable.Range(0, maximumRetained + 3).Select(_ => pool.Get())];
        Thing[] peerThings = [.. Enumerable.Range(0, maximumRetained + 3).Select(_ => peer.Get())];

        Array.ForEach(things, pool.Return);
        Array.ForEach(peerThings, peer.Return);

        // The peer keeps what a drain then hands back without building: count it the same way.
        int peerKept = Enumerable.Range(0, maximumRetained + 3).Select(_ => peer.Get()).Count(peerThings.Contains);
        Assert.Equal(maximumRetained, peerKept);
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: peerKept, dropped: 3);
    }

    [Fact]
    public void ParkedThreadsKeepNothingInTheirSlotsOrReservesOnceHalfTheTrimAgePasses()
    {
        const int Threads = 8;
        var clock = new ManualClock();
        using var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions
        {
            MaximumRetained = 64,
            TimeProvider = clock,
            TrimInterval = TimeSpan.FromDays(1),
            TrimAge = s_trimAge,
            PressureSource = static () => MemoryPressure.Low,
        });

        // Each thread returns two, which stay in its slot and reserve; it stays alive, idle.
        using StartedThreads threads = TestThreads.Start(Threads, (_, _) =>
        {
            Thing first = pool.Get(), second = pool.Get();
            pool.Return(first);
            pool.Return(second);
        });
        threads.WaitForBodies();
        Assert.Equal(2 * Threads, pool.Engine.CountParkedInThreadTiers());
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 2 * Threads, dropped: 0);

        // The first pass sees each thread's mark; half the trim age later, every tier is reclaimed, reserves included.
        pool.Engine.Trim();
        Assert.Equal(2 * Threads, pool.Engine.CountParkedInThreadTiers());
        clock.Advance(s_trimAge / 2);
        pool.Engine.Trim();

        Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Pooled);
        Assert.Equal(2 * Threads, statistics.Trimmed);
        Assert.True(statistics.IsConserved, statistics.ToString());
    }

    [Fact]
    public void DisposingThePoolDisposesWhatOtherLiveThreadsKeepInTheirReservesOnce()
    {
        const int Threads = 4;
        var policy = new CountingPolicy<DisposableThing>();
        var pool = new StripedObjectPool<DisposableThing>(policy, new StripedObjectPoolOptions { MaximumRetained = 16, DisposeItems = true });

        // Each thread parks two (slot and reserve) and stays alive while the pool is disposed.
        using StartedThreads threads = TestThreads.Start(Threads, (_, _) =>
        {
            DisposableThing first = pool.Get(), second = pool.Get();
            pool.Return(first);
            pool.Return(second);
        });
        threads.WaitForBodies();
        Assert.Equal(2 * Threads, pool.GetStatistics().Pooled);

        pool.Dispose();

        Assert.Equal(2 * Threads, policy.CreatedObjects.Count);
        Assert.All(policy.CreatedObjects, thing => Assert.Equal(1, thing.DisposeCount));
        Assert.Equal(0, pool.GetStatistics().Pooled);
    }

    [Fact]
    public void AReserveIsOnlyForAPoolOfOneClassWithNoMagazine()
    {
        ArgumentOutOfRangeException twoClasses = Assert.Throws<ArgumentOutOfRangeException>(() => new StripedPool<object>(
            new StripedPoolSettings { ClassCount = 2, CapacityPerStripe = [4, 4], ThreadReserve = true, TrimmingEnabled = false },
            static _ => new object()));
        ArgumentOutOfRangeException magazine = Assert.Throws<ArgumentOutOfRangeException>(() => new StripedPool<object>(
            new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], MagazineCapacity = [2], ThreadReserve = true, TrimmingEnabled = false },
            static _ => new object()));

        Assert.Equal("settings", twoClasses.ParamName);
        Assert.Equal("settings", magazine.ParamName);
    }
}
