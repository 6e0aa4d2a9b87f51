using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A thread that gets and returns one object at a time after a get took two from its stripe keeps using its slot: the
/// return pushes only the returned object and leaves the other one parked. Only unobserved pools do this (while a
/// guarded pool or a listener is about, a return keeps the returned object in the slot), and a process that has seen
/// a guarded pool stays observed, so the tests run alone and assert what the process's mode promises; the last test
/// runs them, and the pair-move tests, again in a fresh process, where nobody observes pools.
/// </summary>
[Collection(RunsAlone.Name)]
public class StripedObjectPoolOneAtATimeTests
{
    /// <summary>Set in the fresh process: the tests there must find nobody observing pools.</summary>
    private const string UnobservedVariable = "NATIVEPOOL_TEST_UNOBSERVED";

    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public void AThreadThatGetsAndReturnsOneObjectAtATimeAfterAPairPopKeepsItsObjectInItsSlot()
    {
        bool unobserved = IsUnobserved();

        // A bound of 8 has one stripe of 7. After the refill, the stripe is full with things[0..6] and the slot holds
        // things[7]; the first get takes the slot, the second pops the full stripe's top alone.
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing[] things = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];
        Array.ForEach(things, pool.Return);
        Thing first = pool.Get(), second = pool.Get();
        Assert.Equal([things[7], things[6]], [first, second]);

        // The slot is empty and the stripe can spare two: unobserved, this get pops things[5] and parks things[4] under
        // one claim; observed, the engine's rent pops things[5] alone.
        Thing popped = pool.Get();
        Assert.Same(things[5], popped);

        // Unobserved, returning it pushes it alone and leaves things[4] parked, so from here on each get and return use
        // the slot; observed, it parks in the empty slot and comes straight back.
        pool.Return(popped);
        for (int i = 0; i < 4; i++)
        {
            Thing again = pool.Get();
            Assert.Same(unobserved ? things[4] : things[5], again);
            pool.Return(again);
        }

        pool.Return(first);
        pool.Return(second);
        Assert.Equal(8, policy.Created);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 8, pooled: 8, dropped: 0);
    }

    [Fact]
    public void ReturningAnObjectAgainAfterItWentOntoTheStripeAloneThrowsAndKeepsItOnce()
    {
        bool unobserved = IsUnobserved();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing[] things = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];
        Array.ForEach(things, pool.Return);
        Thing first = pool.Get(), second = pool.Get(), popped = pool.Get();
        pool.Return(popped);

        // Unobserved, popped went onto the stripe alone and this get takes things[4] from the slot, leaving it empty:
        // a second return of popped would fit there, but popped is still on the stripe. Observed, popped was parked and
        // this get takes it back, so returning it is no misuse.
        Thing next = pool.Get();
        Assert.Same(unobserved ? things[4] : popped, next);
        if (unobserved)
        {
            Assert.Throws<InvalidOperationException>(() => pool.Return(popped));
            Assert.Throws<InvalidOperationException>(() => pool.Return(popped));
        }

        // Kept once: the pool hands out the five objects it holds, each once, and builds none.
        Thing[] got = [.. Enumerable.Range(0, 5).Select(_ => pool.Get())];
        Assert.Equal(things.Except([first, second, next]).OrderBy(thing => thing.Id), got.OrderBy(thing => thing.Id));
        Assert.Equal(8, policy.Created);
    }

    [Fact]
    public void ReturningAgainTheObjectAReturnLeftOnTopOfTheStripeThrowsWhileTheSlotsObjectIsLent()
    {
        bool unobserved = IsUnobserved();
        using var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        var microsoft = new DefaultObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 8);

        // The stripes are made at the first return that finds the slot taken; then three objects are out, the slot empty.
        pool.Return(pool.Get());
        Thing made = pool.Get();
        pool.Return(pool.Get());
        pool.Return(made);
        Thing first = pool.Get(), second = pool.Get(), third = pool.Get();
        ThreadCache<Thing> cache = pool.CurrentCache()!;
        Assert.Null(cache.Slot(0));

        // Unobserved, the second return pushes the parked first object and then the second onto the stripe, and the third
        // parks. Observed, each return keeps the slot and pushes the object parked there: the third return pushes the
        // second. Either way the second ends on top of the stripe, and the third is in the slot, lent by the next get.
        pool.Return(first);
        pool.Return(second);
        Assert.Same(unobserved ? null : second, cache.Slot(0));
        pool.Return(third);
        Assert.Same(third, pool.Get());
        Assert.Equal(1, cache._lent);

        // A second return of an object the pool holds is refused, with nothing kept twice (Microsoft's pool, which keeps
        // no record of what it holds, takes it a second time and hands it out twice).
        Assert.Throws<InvalidOperationException>(() => pool.Return(second));
        Thing theirs = microsoft.Get();
        microsoft.Return(theirs);
        #pragma warning disable NP0001 // The double return is the point: the peer accepts it.
        microsoft.Return(theirs);
        #pragma warning restore NP0001
        Assert.Same(microsoft.Get(), microsoft.Get());

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 3, pooled: 2, outstanding: 1);
        pool.Return(third);
        Thing[] got = [pool.Get(), pool.Get(), pool.Get()];
        Assert.Equal(3, got.Distinct().Count());
        Array.ForEach(got, pool.Return);
    }

    [Fact]
    public void ThePoolsFirstReturnToTheStripesMovesObjectsAsEveryLaterReturnDoes()
    {
        bool unobserved = IsUnobserved();
        using var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing first = pool.Get(), second = pool.Get();
        int[] made = [first.Id, second.Id];
        ThreadCache<Thing> cache = pool.CurrentCache()!;
        Assert.Null(pool.Engine.GetStripes(0));

        // The first parks; the second finds the slot taken and makes the stripes. Unobserved, both go onto them under one
        // claim and the slot is free for the next return; observed, the second keeps the slot and the first goes.
        pool.Return(first);
        pool.Return(second);
        Assert.NotNull(pool.Engine.GetStripes(0));
        #pragma warning disable NP0002 // Compared after the return on purpose: where the pool keeps it is what is tested.
        Assert.Same(unobserved ? null : second, cache.Slot(0));
        #pragma warning restore NP0002
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 2, pooled: 2, outstanding: 0);

        // The second comes back first either way (the stripe's top, or the slot). Observed, the first is then the object
        // this thread's last push left on top, and returning it again is refused; unobserved, it lies below nothing
        // this thread pushed last, which the cheap check does not see.
        Assert.Same(second, pool.Get());
        if (!unobserved)
        {
            Assert.Throws<InvalidOperationException>(() => pool.Return(first));
        }

        pool.Return(second);
        Thing[] got = [pool.Get(), pool.Get()];
        Assert.Equal(made.Order(), got.Select(thing => thing.Id).Order());
        Array.ForEach(got, pool.Return);
    }

    [Fact]
    public void ReturningAgainTheObjectLeftOnTopOfAStripeThrowsAfterTheThreadsHomeMovedToAnotherStripe()
    {
        IsUnobserved();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 32, TrimmingEnabled = false });
        var microsoft = new DefaultObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 32);
        (Thing top, _, ThreadCache<Thing> cache) = LeaveOneOnTopAndOneParked(pool);

        // The home stripe follows the processor the thread runs on (read again every 32 stripe operations): here it has
        // just moved to the next stripe, which does not have the object on top.
        cache._home = (cache._pushedTopStripe + 1) % pool.StripeCount;
        cache._homeCountdown = 1_000;

        // Refused and kept once, where Microsoft's pool takes the object a second time and hands it out twice.
        Assert.Throws<InvalidOperationException>(() => pool.Return(top));
        AssertEachPooledObjectComesOutOnce(pool, policy);
        Thing theirs = microsoft.Get();
        microsoft.Return(theirs);
        #pragma warning disable NP0001 // The double return is the point: the peer accepts it.
        microsoft.Return(theirs);
        #pragma warning restore NP0001
        Assert.Same(microsoft.Get(), microsoft.Get());
    }

    [Fact]
    public void ReturningAgainTheObjectLeftOnTopOfAStripeThrowsWhileAnotherThreadHoldsThatStripe()
    {
        IsUnobserved();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 32, TrimmingEnabled = false });
        (Thing top, _, ThreadCache<Thing> cache) = LeaveOneOnTopAndOneParked(pool);
        StripeSet<Thing> stripes = pool.Engine.GetStripes(0)!;
        int stripe = cache._pushedTopStripe;

        // The stripe's claim as another thread in the middle of a get or return holds it. A regression that waited for it
        // would stay blocked: the timer lets it go after a minute, and the return then fails the test instead.
        stripes.GetHeader(stripe).Claim = 1;
        using (new Timer(_ => Volatile.Write(ref stripes.GetHeader(stripe).Claim, 0), null, TimeSpan.FromMinutes(1), Timeout.InfiniteTimeSpan))
        {
            try
            {
                Assert.Throws<InvalidOperationException>(() => pool.Return(top));
            }
            finally
            {
                // Volatile: the safety timer may write the claim on its own thread too.
                Volatile.Write(ref stripes.GetHeader(stripe).Claim, 0);
            }
        }

        AssertEachPooledObjectComesOutOnce(pool, policy);
    }

    [Fact]
    public void AnIdleThreadsReclaimTakesTheObjectItLeftOnTopOfAStripeSoAReturnOfItAgainIsKeptOnce()
    {
        IsUnobserved();
        var clock = new ManualClock();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, TrimmedByHand(clock, disposeItems: false));
        (Thing top, Thing parked, ThreadCache<Thing> cache) = LeaveOneOnTopAndOneParked(pool);
        long trimmedBefore = pool.GetStatistics().Trimmed;

        // Two passes on the trimmer's own thread, half the trim age apart: the first sees this thread's tier active and
        // starts its idle clock, the second reclaims it (the stripes, touched since, are not old enough to trim).
        TestThreads.RunOnNewThread(() => pool.Engine.Trim());
        clock.Advance(TimeSpan.FromSeconds(30));
        TestThreads.RunOnNewThread(() => pool.Engine.Trim());

        // The parked object and the one left on top went together, and the thread forgot the top.
        Assert.Null(cache.Slot(0));
        Assert.Null(cache._pushedTop);
        Assert.False(pool.Engine.GetStripes(0)!.IsOnTop(cache._pushedTopStripe, top));
        Assert.Equal(trimmedBefore + 2, pool.GetStatistics().Trimmed);

        // So returning it again keeps it once: it is no longer in the pool.
        pool.Return(top);
        AssertEachPooledObjectComesOutOnce(pool, policy);
        GC.KeepAlive(parked);
    }

    [Fact]
    public void AReturnPastATierBeingReclaimedIsRememberedSoItsSecondReturnIsRefusedOnceTheTierReopens()
    {
        IsUnobserved();
        var clock = new ManualClock();
        var policy = new CountingPolicy<DisposableThing>();
        using var pool = new StripedObjectPool<DisposableThing>(policy, TrimmedByHand(clock, disposeItems: true));
        using var reclaiming = new SemaphoreSlim(0);
        using var returned = new SemaphoreSlim(0);
        DisposableThing held = pool.Get();
        (DisposableThing top, _, ThreadCache<DisposableThing> cache) = LeaveOneOnTopAndOneParked(pool);
        StripeSet<DisposableThing> stripes = pool.Engine.GetStripes(0)!;

        // A disposing pool's timer never trims, but a pass asked for trims it too, and its discard of the object this
        // thread left on top runs while the reclaim holds this thread's tier closed: there this thread returns the
        // object it holds, which can only go onto the stripes.
        top.OnDispose = () =>
        {
            reclaiming.Release();
            Assert.True(returned.Wait(s_timeout), "The test thread never returned its object during the reclaim.");
        };
        using (StartedThreads trimmer = TestThreads.Start(1, (_, _) =>
        {
            pool.Engine.Trim();
            clock.Advance(TimeSpan.FromSeconds(30));
            pool.Engine.Trim();
        }))
        {
            Assert.True(reclaiming.Wait(s_timeout), "The trimmer never reclaimed this thread's tier.");
            Assert.Equal(1, Volatile.Read(ref cache._closed));
            pool.Return(held);
            Assert.True(stripes.IsOnTop(cache._home, held));
            returned.Release();
            trimmer.WaitForBodies();
        }

        // The reclaim emptied the slot and reopened the tier; the object returned past it is still on top, and a second
        // return of it is refused rather than parked in the empty slot.
        Assert.Null(cache.Slot(0));
        Assert.Throws<InvalidOperationException>(() => pool.Return(held));
        AssertEachPooledObjectComesOutOnce(pool, policy);
    }

    [Fact]
    public void ADoubleReturnRefusedWhileADisposeMarksThePoolStillDrainsWhatTheThreadHolds()
    {
        bool unobserved = IsUnobserved();
        var policy = new CountingPolicy<DisposableThing>();
        var pool = new StripedObjectPool<DisposableThing>(policy, new StripedObjectPoolOptions { MaximumRetained = 32, TrimmingEnabled = false, DisposeItems = true });
        (DisposableThing top, DisposableThing parked, _) = LeaveOneOnTopAndOneParked(pool);

        // What the return sees when a Dispose on another thread marked the pool and drained this thread's slot while a
        // refused return had the slot's object out of the slot: the mark, and the object still here. Set by hand, since
        // no schedule is deterministic: the engine's mark without its drain.
        FieldInfo mark = typeof(StripedPool<DisposableThing>).GetField("_shutdown", BindingFlags.NonPublic | BindingFlags.Instance)!;
        mark.SetValue(pool.Engine, Activator.CreateInstance(mark.FieldType, nonPublic: true));

        if (unobserved)
        {
            // The short path stores first and re-reads the mark after: the return is refused, and drains again before it
            // throws, so nothing the pool held stays undisposed.
            Assert.Throws<InvalidOperationException>(() => pool.Return(top));
            Assert.True(parked.IsDisposed);
            Assert.Equal(0, pool.GetStatistics().Pooled);
        }
        else
        {
            // Observed, the return reads the mark before it stores, and takes the path of a return after Dispose.
            pool.Return(top);
        }

        Assert.True(top.IsDisposed);

        // The real Dispose, from an unmarked engine, so the pool gives its id back.
        mark.SetValue(pool.Engine, null);
        pool.Dispose();
    }

    [Fact]
    public void TheseTestsAndThePairMoveTestsAlsoPassInAProcessWhereNobodyObservesPools()
    {
        string assembly = typeof(StripedObjectPoolOneAtATimeTests).Assembly.Location;
        string filter = $"(FullyQualifiedName~.{nameof(StripedObjectPoolOneAtATimeTests)}.|FullyQualifiedName~.{nameof(StripedObjectPoolPairMoveTests)}.)" +
            $"&FullyQualifiedName!~{nameof(TheseTestsAndThePairMoveTestsAlsoPassInAProcessWhereNobodyObservesPools)}";
        var environment = new Dictionary<string, string>
        {
            [UnobservedVariable] = "1",
            ["NATIVEPOOL_GUARDED"] = "",
        };

        (int exitCode, string log) = ChildProcess.Run("dotnet", null, s_timeout, ["test", assembly, "--filter", filter], environment);

        Assert.True(exitCode == 0, $"The fresh process's run exited with {exitCode}:\n{ChildProcess.Tail(log, 40)}");
        Match summary = Regex.Match(log, @"Failed:\s+(\d+), Passed:\s+(\d+)");
        Assert.True(summary.Success, $"No summary in the fresh process's run:\n{ChildProcess.Tail(log, 40)}");
        int expected = CaseCount(typeof(StripedObjectPoolOneAtATimeTests)) - 1 + CaseCount(typeof(StripedObjectPoolPairMoveTests));
        Assert.Equal(("0", expected), (summary.Groups[1].Value, int.Parse(summary.Groups[2].Value, CultureInfo.InvariantCulture)));
    }

    /// <summary>
    /// Leaves one object on top of the stripe this thread pushed to last and another parked in its slot, in either mode:
    /// unobserved, the second return pushes the first and second under one claim and the third parks; observed, each
    /// return keeps the slot and pushes what was parked there, so the third pushes the second.
    /// </summary>
    private static (T Top, T Parked, ThreadCache<T> Cache) LeaveOneOnTopAndOneParked<T>(StripedObjectPool<T> pool)
        where T : class
    {
        // The stripes are made at the first return that finds the slot taken; then three objects are out, the slot empty.
        pool.Return(pool.Get());
        T made = pool.Get();
        pool.Return(pool.Get());
        pool.Return(made);
        T first = pool.Get(), second = pool.Get(), third = pool.Get();
        ThreadCache<T> cache = pool.CurrentCache()!;
        pool.Return(first);
        pool.Return(second);
        pool.Return(third);

        #pragma warning disable NP0002 // Looked at after the returns on purpose: where the pool keeps them is what is set up.
        Assert.Same(second, cache._pushedTop);
        Assert.True(pool.Engine.GetStripes(0)!.IsOnTop(cache._pushedTopStripe, second));
        Assert.Same(third, cache.Slot(0));
        return (second, third, cache);
        #pragma warning restore NP0002
    }

    /// <summary>A bound of 32 on <paramref name="clock"/> with a trim age of a minute, trimmed only by the passes a test runs (the timer's interval is an hour, and a disposing pool's timer never trims).</summary>
    private static StripedObjectPoolOptions TrimmedByHand(ManualClock clock, bool disposeItems) => new()
    {
        MaximumRetained = 32,
        TimeProvider = clock,
        TrimAge = TimeSpan.FromMinutes(1),
        TrimInterval = TimeSpan.FromHours(1),
        DisposeItems = disposeItems,
    };

    /// <summary>Gets as many objects as the pool says it holds: each a different one, and none built.</summary>
    private static void AssertEachPooledObjectComesOutOnce<T>(StripedObjectPool<T> pool, CountingPolicy<T> policy)
        where T : class, new()
    {
        int pooled = checked((int)pool.GetStatistics().Pooled);
        int created = policy.Created;
        T[] got = [.. Enumerable.Range(0, pooled).Select(_ => pool.Get())];
        Assert.Equal(pooled, got.Distinct().Count());
        Assert.Equal(created, policy.Created);
        Array.ForEach(got, pool.Return);
    }

    /// <summary>The test cases of <paramref name="type"/>: one per fact, one per inline data row of a theory.</summary>
    private static int CaseCount(Type type) =>
        type.GetMethods().Sum(method => method.GetCustomAttribute<TheoryAttribute>() is not null
            ? method.GetCustomAttributes<InlineDataAttribute>().Count()
            : method.GetCustomAttribute<FactAttribute>() is not null ? 1 : 0);

    /// <summary>Whether nobody observes pools now (stable while these tests run alone); in the fresh process, it must be so.</summary>
    private static bool IsUnobserved()
    {
        bool unobserved = !PoolObservation.IsActive;
        if (Environment.GetEnvironmentVariable(UnobservedVariable) == "1")
        {
            Assert.True(unobserved, "Something observes pools in the fresh process.");
        }

        return unobserved;
    }
}
