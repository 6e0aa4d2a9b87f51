using System.Text;
using Microsoft.Extensions.ObjectPool;
using NativePool.Tests.ArrayPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The conveniences: delegate constructors, Prefill, RentLease leases, Scoped calls, dispose-when-full.</summary>
public sealed class StripedObjectPoolConvenienceTests
{
    [Fact]
    public void AFactoryPoolCreatesWithTheFactoryAndRunsTheCleanupOnEveryReturn()
    {
        int created = 0;
        var pool = new StripedObjectPool<StringBuilder>(() => { created++; return new StringBuilder(); }, static sb => sb.Clear(), new StripedObjectPoolOptions { MaximumRetained = 4 });

        StringBuilder builder = pool.Get();
        builder.Append("dirty");
        pool.Return(builder);

        Assert.Equal(1, created);
        Assert.Same(builder, pool.Get());
        Assert.Equal(0, builder.Length);
    }

    [Fact]
    public void AFactoryPoolKeepsTheDefaultBound()
    {
        var pool = new StripedObjectPool<Thing>(static () => new Thing(), cleanup: null, new StripedObjectPoolOptions());

        Assert.Equal(Environment.ProcessorCount * 2, pool.MaximumRetained);
        Assert.False(pool.DisposesItems);
    }

    [Fact]
    public void DisposeWhenFullDisposesOnlyWhatTheFullPoolCannotKeep()
    {
        var pool = new StripedObjectPool<DisposableThing>(static () => new DisposableThing(), null, new StripedObjectPoolOptions { MaximumRetained = 2, DisposeItems = true });
        DisposableThing[] items = Enumerable.Range(0, 5).Select(_ => pool.Get()).ToArray();

        foreach (DisposableThing item in items)
        {
            pool.Return(item);
        }

        // 2 retained = 1 stripe of 1 + 1 thread slot: one thread fills both.
        Assert.Equal(3, items.Count(static item => item.IsDisposed));
        Assert.True(pool.DisposesItems);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AnObjectReturnedAfterDisposeIsCountedAsDropped(bool disposeItems)
    {
        var pool = new StripedObjectPool<List<int>>(
            new Microsoft.Extensions.ObjectPool.DefaultPooledObjectPolicy<List<int>>(),
            new StripedObjectPoolOptions { DisposeItems = disposeItems, TrimmingEnabled = false });
        List<int> held = pool.Get();
        pool.Dispose();
        pool.Return(held);

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, dropped: 1, outstanding: 0);
    }

    [Fact]
    public void WithoutDisposeWhenFullOverflowIsOnlyDropped()
    {
        var pool = new StripedObjectPool<DisposableThing>(static () => new DisposableThing(), null, new StripedObjectPoolOptions { MaximumRetained = 2 });
        DisposableThing[] items = Enumerable.Range(0, 5).Select(_ => pool.Get()).ToArray();

        foreach (DisposableThing item in items)
        {
            pool.Return(item);
        }

        pool.Dispose();
        Assert.DoesNotContain(items, static item => item.IsDisposed);
    }

    [Fact]
    public void PrefillCreatesTheMissingObjectsUpToTheBound()
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, 8);

        pool.Prefill(100);

        Assert.Equal(8, policy.Created);
        Assert.Equal(8, pool.GetStatistics().Pooled);

        // The budget is shared by the stripes and the thread tier, so this thread reaches all eight.
        Thing[] rented = Enumerable.Range(0, 8).Select(_ => pool.Get()).ToArray();
        Assert.Equal(8, policy.Created);
        Assert.Equal(policy.CreatedObjects.ToHashSet(), rented.ToHashSet());
    }

    [Fact]
    public void PrefillReusesWhatThePoolAlreadyHolds()
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, 8);
        pool.Return(pool.Get());

        pool.Prefill(3);

        Assert.Equal(3, policy.Created);
        Assert.Equal(3, pool.GetStatistics().Pooled);
        pool.Prefill(0);
        Assert.Equal(3, policy.Created);
    }

    [Fact]
    public void ALeaseReturnsItsObjectWhenDisposed()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 4);
        Thing held;
        using (ObjectLease<Thing> lease = pool.RentLease())
        {
            held = lease.Value;
            Assert.NotNull(held);
        }

        Assert.Same(held, pool.Get());
    }

    [Fact]
    public void ACopiedOrTwiceDisposedLeaseReturnsItsObjectOnce()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 4);
        ObjectLease<Thing> lease = pool.RentLease();
        ObjectLease<Thing> copy = lease;
        Thing leased = lease.Value;
        Assert.True(lease == copy);

        lease.Dispose();
        lease.Dispose();
        copy.Dispose();

        #pragma warning disable NP0003 // The second owner check needs both objects out of the pool.
        Thing first = pool.Get();
        Thing second = pool.Get();
        #pragma warning restore NP0003
        Assert.Same(leased, first);
        Assert.NotSame(first, second);
    }

    [Fact]
    public void AStaleLeaseDoesNotReturnTheObjectItsTokenNowServes()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 4);
        ObjectLease<Thing> stale = pool.RentLease();
        ObjectLease<Thing> copy = stale;
        Thing staleValue = stale.Value;
        stale.Dispose();

        using ObjectLease<Thing> current = pool.RentLease();
        copy.Dispose();

        Assert.Same(staleValue, current.Value);
        Assert.NotSame(current.Value, pool.Get());
    }

    [Fact]
    public void ADefaultLeaseDisposesToNothing()
    {
        ObjectLease<Thing> lease = default;
        lease.Dispose();
        Assert.False(lease.IsActive);
        Assert.Throws<ObjectDisposedException>(() => lease.Value);
    }

    [Fact]
    public void ADisposedLeaseIsInactiveAndItsValueThrowsOnEveryCopy()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 4);
        ObjectLease<Thing> lease = pool.RentLease();
        ObjectLease<Thing> copy = lease;
        Assert.True(copy.IsActive);

        lease.Dispose();

        Assert.False(lease.IsActive);
        Assert.False(copy.IsActive);
        Assert.Throws<ObjectDisposedException>(() => lease.Value);
        Assert.Throws<ObjectDisposedException>(() => copy.Value);
    }

    [Fact]
    public void ScopedRunsTheActionWithItsStateAndReturnsTheObject()
    {
        var pool = new StripedObjectPool<StringBuilder>(static () => new StringBuilder(), static sb => sb.Clear(), new StripedObjectPoolOptions { MaximumRetained = 4 });
        var seen = new List<string>();

        pool.Scoped((seen, "hello"), static (sb, state) => state.seen.Add(sb.Append(state.Item2).ToString()));

        Assert.Equal(["hello"], seen);
        Assert.Equal(0, pool.Get().Length);
    }

    [Fact]
    public void ScopedWithAResultReturnsTheResultAndTheObject()
    {
        var pool = new StripedObjectPool<StringBuilder>(static () => new StringBuilder(), static sb => sb.Clear(), new StripedObjectPoolOptions { MaximumRetained = 4 });
        StringBuilder builder = pool.Get();
        pool.Return(builder);

        string text = pool.Scoped(42, static (sb, n) => sb.Append(n).ToString());

        Assert.Equal("42", text);
        Assert.Same(builder, pool.Get());
    }

    [Fact]
    public void ScopedReturnsTheObjectWhenTheActionThrows()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 4);
        Thing item = pool.Get();
        pool.Return(item);

        Assert.Throws<FormatException>(() => pool.Scoped(0, static (_, _) => throw new FormatException()));

        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void GetReturnLeasesAndScopedCallsAllocateNothingInSteadyState()
    {
        var pool = new StripedObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 8);
        Exercise(pool);

        long before = GC.GetAllocatedBytesForCurrentThread();
        Exercise(pool);
        long after = GC.GetAllocatedBytesForCurrentThread();

        Assert.Equal(0, after - before);

        static void Exercise(StripedObjectPool<Thing> pool)
        {
            for (int i = 0; i < 1000; i++)
            {
                pool.Return(pool.Get());
                using (pool.RentLease())
                {
                }

                pool.Scoped(i, static (thing, n) => GC.KeepAlive(thing));
                _ = pool.Scoped(i, static (thing, n) => thing.Id + n);
            }
        }
    }

    [Fact]
    public void TheDefaultPolicyIsRecognisedAndStillHonoursIResettable()
    {
        var pool = new StripedObjectPool<ResettableThing>(new DefaultPooledObjectPolicy<ResettableThing>(), 4);
        ResettableThing item = pool.Get();
        item.Dirty = true;

        pool.Return(item);

        #pragma warning disable NP0002 // The test checks what the return did to the object.
        Assert.False(item.Dirty);
        #pragma warning restore NP0002
        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void AThreadWithRoomInTheBudgetPoolsNextToAnotherThreadsSlot()
    {
        // This test thread parks one of the three in its slot; a second thread still has room for its own.
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, 3);
        pool.Return(pool.Get());
        Thing? first = null;
        Thing? second = null;

        // The second thread stays alive until the statistics are read: once it exits, its cache may be finalized at
        // any collection and the object it parked is then counted as dropped (correctly, but not what this checks).
        using StartedThreads thread = TestThreads.Start(1, (_, _) =>
        {
            first = pool.Get();
            pool.Return(first);
            second = pool.Get();
            pool.Return(second);
        });
        thread.WaitForBodies();

        Assert.Same(first, second);
        Assert.Equal(2, policy.Created);
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 2, dropped: 0, outstanding: 0);
    }

    [Fact]
    public void OneThreadKeepsTheBoundAndAnotherThreadKeepsOneMoreInItsOwnSlotOnly()
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, 3);
        Thing[] mine = [pool.Get(), pool.Get(), pool.Get(), pool.Get()];
        Array.ForEach(mine, pool.Return);

        // One thread: the bound exactly (two on the stripes, one in its slot), as Microsoft's pool keeps.
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 3, dropped: 1);

        // Another thread: its slot keeps one (a slot holds no unit of the bound); the stripes are full for the second.
        // It stays alive until the statistics are read: once it exits, its cache may be finalized at any collection and
        // the object in its slot is then counted as dropped.
        using StartedThreads thread = TestThreads.Start(1, (_, _) =>
        {
            pool.Return(new Thing());
            pool.Return(new Thing());
        });
        thread.WaitForBodies();

        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 4, dropped: 2);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    [InlineData(8)]
    [InlineData(64)]
    public void TheStripesTogetherCanHoldTheWholeBoundWithLessThanOneStripeOfSlack(int maxStripes)
    {
        for (int maximumRetained = 1; maximumRetained <= 3000; maximumRetained++)
        {
            (int stripes, int capacity) = StripedObjectPool<Thing>.SplitRetention(maximumRetained, maxStripes);

            Assert.True(stripes >= 1 && stripes <= maxStripes && (stripes & (stripes - 1)) == 0, $"stripes {stripes}");
            Assert.True(stripes <= maximumRetained, $"{stripes} stripes for {maximumRetained}");
            Assert.True((long)stripes * capacity >= maximumRetained, $"{stripes} × {capacity} < {maximumRetained}");
            Assert.True((long)stripes * (capacity - 1) < maximumRetained, $"{stripes} × {capacity} is a stripe too many for {maximumRetained}");
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(64)]
    public void EachStripeWithTheSlotOfAThreadThatUsesItHoldsAtLeastEightObjectsAndThereAreAsManyAsThatAllows(int maxStripes)
    {
        for (int maximumRetained = 1; maximumRetained <= 3000; maximumRetained++)
        {
            // The stripes hold the bound less one slot.
            (int stripes, _) = StripedObjectPool<Thing>.SplitRetention(Math.Max(1, maximumRetained - 1), maxStripes);
            int share = maximumRetained / stripes;

            Assert.True(stripes == 1 || share >= 8, $"{stripes} stripes for a bound of {maximumRetained}");
            Assert.True(stripes * 2 > maxStripes || maximumRetained / (stripes * 2) < 8, $"{stripes} stripes for a bound of {maximumRetained}: twice as many would still hold 8");
        }

        // Two threads on two cores sharing a bound of 16 each get a stripe of their own.
        Assert.Equal((Math.Min(2, maxStripes), maxStripes == 1 ? 15 : 8), StripedObjectPool<Thing>.SplitRetention(15, maxStripes));
    }

    [Theory]
    [InlineData(8)]
    [InlineData(64)]
    [InlineData(2048)]
    public void AThreadThatReturnedTheWholePoolAndWentIdleStarvesNoOtherThread(int maximumRetained)
    {
        var policy = new CountingPolicy<Thing>();
        var pool = new StripedObjectPool<Thing>(policy, maximumRetained);
        Thing[] all = [.. Enumerable.Range(0, maximumRetained).Select(_ => pool.Get())];
        Array.ForEach(all, pool.Return);
        Assert.Equal(maximumRetained, pool.GetStatistics().Pooled);

        // This thread now holds what its slot may (one object) and never uses the pool again. It stays alive, idle,
        // until the statistics are read: once it exits, its cache may be finalized at any collection and the object in
        // its slot is then counted as dropped.
        using StartedThreads thread = TestThreads.Start(1, (_, _) =>
        {
            for (int i = 0; i < 10_000; i++)
            {
                pool.Return(pool.Get());
            }
        });
        thread.WaitForBodies();

        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(maximumRetained, policy.Created);
        Assert.Equal(0, stats.Dropped);
        Assert.Equal(maximumRetained, stats.Pooled);
    }

    [Fact]
    public void APoolReportsItsSplit()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 2048);

        Assert.Equal(2048, pool.MaximumRetained);
        Assert.Equal(pool.StripeCount, pool.Engine.StripeCount);
        Assert.Equal(pool.StripeCapacity, pool.Engine.CapacityPerStripe(0));

        // The stripes hold M − 1 between them, split as evenly as it goes; the slot of the thread that returns last holds the M-th.
        Thing first = pool.Get();
        Thing second = pool.Get();
        pool.Return(first);
        pool.Return(second);
        StripeSet<Thing> stripes = pool.Engine.GetStripes(0)!;
        int[] capacities = [.. Enumerable.Range(0, stripes.StripeCount).Select(stripes.CapacityOf)];
        Assert.Equal(2047, capacities.Sum());
        Assert.True(capacities.Max() - capacities.Min() <= 1, string.Join(", ", capacities));
        Assert.Equal(pool.StripeCapacity, capacities.Max());

        // No magazine: a thread keeps at most its slot's object to itself.
        Assert.Equal(0, pool.Engine.MagazineCapacity(0));
    }
}
