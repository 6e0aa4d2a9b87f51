using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A get served by the thread's slot lends the slot's object: the reference stays in the slot while the caller has it,
/// flagged as lent, so its return is one flag store. A lent object is the caller's: it is outstanding, not pooled; a
/// trim, a shutdown and a dead thread's finalizer leave it alone; and the slot lets go of it at the thread's next get
/// or return. Microsoft's pool, where the same calls are made side by side, is the reference for what a caller sees.
/// </summary>
public class StripedObjectPoolLentSlotTests
{
    private static StripedObjectPool<Thing> CreatePool(CountingPolicy<Thing>? policy = null) =>
        new(policy ?? new CountingPolicy<Thing>(), new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });

    /// <summary>A get that the slot serves: one object built, returned into the slot, and got again.</summary>
    private static Thing GetFromTheSlot(StripedObjectPool<Thing> pool)
    {
        pool.Return(pool.Get());
        return pool.Get();
    }

    [Fact]
    public void AnObjectGotFromTheSlotIsOutstandingUntilReturnedAndThenComesBackAgain()
    {
        var policy = new CountingPolicy<Thing>();
        using StripedObjectPool<Thing> pool = CreatePool(policy);
        var microsoft = new DefaultObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 8);

        Thing ours = pool.Get();
        Thing theirs = microsoft.Get();
        pool.Return(ours);
        microsoft.Return(theirs);

        for (int round = 0; round < 3; round++)
        {
            // Both pools hand the object just returned straight back, and hold nothing while it is out.
            Assert.Same(theirs, microsoft.Get());
            Assert.Same(ours, pool.Get());
            StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, outstanding: 1);

            pool.Return(ours);
            microsoft.Return(theirs);
            StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, outstanding: 0);
        }

        Assert.Equal(1, policy.Created);
    }

    [Fact]
    public void ReturningALentObjectTwiceThrowsTheSecondTimeAndKeepsItOnce()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        Thing lent = GetFromTheSlot(pool);

        pool.Return(lent);
        Assert.Throws<InvalidOperationException>(() => pool.Return(lent));

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, outstanding: 0);
        Assert.Same(lent, pool.Get());
        Assert.NotSame(lent, pool.Get());
    }

    [Fact]
    public void ReturningAnotherObjectWhileOneIsLentKeepsBothAndHandsEachOutOnce()
    {
        var policy = new CountingPolicy<Thing>();
        using StripedObjectPool<Thing> pool = CreatePool(policy);
        Thing other = pool.Get();
        Thing lent = pool.Get();
        pool.Return(lent);
        Assert.Same(lent, pool.Get());

        // The slot still refers to the lent object; the other one takes its place, and the lent one goes elsewhere.
        pool.Return(other);
        pool.Return(lent);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 2, pooled: 2, outstanding: 0);

        Thing[] got = [pool.Get(), pool.Get(), pool.Get()];
        Assert.Equal(2, got.Count(thing => ReferenceEquals(thing, lent) || ReferenceEquals(thing, other)));
        Assert.Equal(3, got.Distinct().Count());
        Assert.Equal(3, policy.Created);
    }

    [Fact]
    public void TheSlotLetsGoOfAnObjectThatWasNeverReturnedAtTheThreadsNextGet()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        #pragma warning disable NP0003 // Never returned, on purpose: the slot must let go of it.
        Thing abandoned = GetFromTheSlot(pool);
        ThreadCache<Thing> cache = pool.CurrentCache()!;
        Assert.Same(abandoned, cache.Slot(0));

        Thing next = pool.Get();
        #pragma warning restore NP0003

        Assert.NotSame(abandoned, next);
        Assert.Null(cache.Slot(0));
        Assert.Equal(0, cache._lent);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 2, pooled: 0, outstanding: 2);
    }

    [Fact]
    public void TheSlotLetsGoOfAnObjectThatWasNeverReturnedAtTheThreadsNextReturnOfAnother()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        Thing other = pool.Get();
        #pragma warning disable NP0003 // Never returned, on purpose: the slot must let go of it.
        Thing abandoned = GetFromTheSlot(pool);
        #pragma warning restore NP0003
        ThreadCache<Thing> cache = pool.CurrentCache()!;

        pool.Return(other);

        Assert.Same(other, cache.Slot(0));
        Assert.Equal(0, cache._lent);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 2, pooled: 1, outstanding: 1);
        Assert.NotSame(abandoned, other);
    }

    [Fact]
    public void TheWalkThatFinalizersTrimsAndStatisticsShareSkipsALentSlot()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        Thing lent = GetFromTheSlot(pool);

        // The engine's count of the thread tiers' parked items is that walk.
        Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());

        pool.Return(lent);
        Assert.Equal(1, pool.Engine.CountParkedInThreadTiers());
    }

    [Fact]
    public void AGetKeepsOutOfASlotThatAPassIsReclaimingAndParksNothingOverIt()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        Thing[] things = [.. Enumerable.Range(0, 5).Select(_ => pool.Get())];
        Array.ForEach(things, pool.Return);
        if (pool.CurrentCache()!.Slot(0) is null)
        {
            // The last return moved two objects to the stripe: one more get and return leaves one in the slot.
            pool.Return(pool.Get());
        }

        ThreadCache<Thing> cache = pool.CurrentCache()!;
        Thing parked = cache.Slot(0)!;
        Assert.NotNull(parked);

        // Volatile: closes the tier as a pass does before it takes from it (the flag is the pass's to set; the owner reads it).
        Volatile.Write(ref cache._closed, 1);
        Thing got = pool.Get();

        // Volatile: reopens it, as the pass does once it has taken.
        Volatile.Write(ref cache._closed, 0);

        // The get went to the stripe, which holds three or more: it neither lent the parked object nor put a second one in
        // its place, so the pass finds it there to take.
        Assert.NotSame(parked, got);
        Assert.Same(parked, cache.Slot(0));
        Assert.Equal(0, cache._lent);
        pool.Return(got);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 5, pooled: 5, outstanding: 0);
    }

    [Fact]
    public void ATrimThatReleasesEverythingLeavesALentObjectWithItsCaller()
    {
        using StripedObjectPool<Thing> pool = CreatePool();
        Thing lent = GetFromTheSlot(pool);

        // From the owner's own thread, then from another (the reclaim protocol): neither takes the lent object.
        Assert.Equal(0, pool.Engine.Trim(releaseAll: true));
        int trimmedElsewhere = 0;
        TestThreads.RunOnNewThread(() => trimmedElsewhere = pool.Engine.Trim(releaseAll: true));
        Assert.Equal(0, trimmedElsewhere);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, trimmed: 0, outstanding: 1);

        pool.Return(lent);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, trimmed: 0, outstanding: 0);
        Assert.Same(lent, pool.Get());
        pool.Return(lent);

        // Returned, it is the pool's again, and a pass from another thread takes it.
        TestThreads.RunOnNewThread(() => trimmedElsewhere = pool.Engine.Trim(releaseAll: true));
        Assert.Equal(1, trimmedElsewhere);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, trimmed: 1, outstanding: 0);
    }

    [Fact]
    public void DisposingThePoolLeavesALentObjectUndisposedAndItsLaterReturnDisposesItOnceAsMicrosoftsPoolDoes()
    {
        using var pool = new StripedObjectPool<DisposableThing>(
            new DefaultPooledObjectPolicy<DisposableThing>(),
            new StripedObjectPoolOptions { MaximumRetained = 8, DisposeItems = true });
        ObjectPool<DisposableThing> microsoft = new DefaultObjectPoolProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        Assert.IsAssignableFrom<IDisposable>(microsoft);

        pool.Return(pool.Get());
        microsoft.Return(microsoft.Get());
        DisposableThing ours = pool.Get();
        DisposableThing theirs = microsoft.Get();

        pool.Dispose();
        ((IDisposable)microsoft).Dispose();
        Assert.Equal(theirs.DisposeCount, ours.DisposeCount);
        Assert.False(ours.IsDisposed);

        pool.Return(ours);
        microsoft.Return(theirs);
        #pragma warning disable NP0002 // Read after the return on purpose: both pools must have disposed it, once.
        Assert.Equal(theirs.DisposeCount, ours.DisposeCount);
        Assert.Equal(1, ours.DisposeCount);
        #pragma warning restore NP0002
    }
}
