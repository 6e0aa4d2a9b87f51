using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A thread that gets and returns one object at a time after a get took two from its stripe keeps using its slot: the
/// return moves the other one to the thread's reserve, out of every other thread's reach, and from then on no get or
/// return touches the stripes. Only unobserved pools take two (while a guarded pool or a listener is about, a get takes
/// one), and a process that has seen a guarded pool stays observed, so the tests run alone and assert what the process's
/// mode promises; the last test runs them, and the pair-move tests, again in a fresh process, where nobody observes pools.
/// </summary>
[Collection(RunsAlone.Name)]
public class StripedObjectPoolOneAtATimeTests
{
    /// <summary>Set in the fresh process: the tests there must find nobody observing pools.</summary>
    private const string UnobservedVariable = "NATIVEPOOL_TEST_UNOBSERVED";

    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    [Fact]
    public void AThreadThatGetsAndReturnsOneObjectAtATimeAfterAPairPopKeepsTheOtherInItsReserve()
    {
        bool unobserved = IsUnobserved();

        // A bound of 8 has one stripe of 6. After the refill, the stripe is full with things[0..5], the slot holds
        // things[7] and the reserve things[6]; the first two gets take those, the third pops the full stripe's top alone.
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Assert.Equal(1, pool.StripeCount);
        Thing[] things = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];
        Array.ForEach(things, pool.Return);
        Thing[] first = [pool.Get(), pool.Get(), pool.Get()];
        Assert.Equal([things[7], things[6], things[5]], first);

        // The slot is empty and the stripe can spare two: unobserved, this get pops things[4] and parks things[3] in the
        // slot under one claim; observed, the engine's rent pops things[4] alone.
        Thing popped = pool.Get();
        Assert.Same(things[4], popped);

        // Unobserved, returning it moves things[3] to the reserve and takes the slot; observed, it parks in the empty
        // slot. Either way each get and return from here on use the slot.
        pool.Return(popped);
        for (int i = 0; i < 4; i++)
        {
            Thing again = pool.Get();
            Assert.Same(things[4], again);
            pool.Return(again);
        }

        // Another thread reaches only the stripes: unobserved, things[3] waits in this thread's reserve and the stripe's
        // top is things[2]; observed, things[3] is on top.
        Thing? other = null;
        var thread = new Thread(() => other = pool.Get());
        thread.Start();
        thread.Join();
        Assert.Same(unobserved ? things[2] : things[3], other);

        pool.Return(other!);
        Array.ForEach(first, pool.Return);
        Assert.Equal(8, policy.Created);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 8, pooled: 8, dropped: 0);
    }

    [Fact]
    public void ReturningAnObjectAgainWhileItWaitsInTheReserveThrowsAndKeepsItOnce()
    {
        IsUnobserved();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing[] things = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];
        Array.ForEach(things, pool.Return);

        // The get takes things[7] from the slot and leaves it empty, with things[6] in the reserve: a second return of
        // things[6] would fit in the slot, but the pool still holds it.
        Thing next = pool.Get();
        Assert.Same(things[7], next);
        Assert.Throws<InvalidOperationException>(() => pool.Return(things[6]));
        Assert.Throws<InvalidOperationException>(() => pool.Return(things[6]));

        // Kept once: the pool hands out the seven objects it holds, each once, and builds none.
        Thing[] got = [.. Enumerable.Range(0, 7).Select(_ => pool.Get())];
        Assert.Equal(things.Except([next]).OrderBy(thing => thing.Id), got.OrderBy(thing => thing.Id));
        Assert.Equal(8, policy.Created);
    }

    [Fact]
    public void ReturningAnObjectAgainAfterTheNextReturnPushedItOntoTheStripeThrowsAndKeepsItOnce()
    {
        IsUnobserved();
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing a = pool.Get(), b = pool.Get(), c = pool.Get();
        pool.Return(a);
        pool.Return(b);

        // c takes the slot: unobserved, b (from the slot) goes onto the stripe with a (from the reserve), b on top;
        // observed, a goes alone and b moves to the reserve.
        pool.Return(c);
        Assert.Same(c, pool.Get());

        // The slot is empty again, but b is still in the pool: on the stripe's top, or in the reserve.
        Assert.Throws<InvalidOperationException>(() => pool.Return(b));
        Assert.Throws<InvalidOperationException>(() => pool.Return(b));

        // Kept once: two gets hand out a and b, each once, b first (the warmer), and build none.
        Thing[] got = [pool.Get(), pool.Get()];
        Assert.Equal([b, a], got);
        Assert.Equal(3, policy.Created);
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
