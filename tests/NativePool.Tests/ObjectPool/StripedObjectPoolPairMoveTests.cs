namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A drain and refill on one thread moves objects between the thread's slot and its stripe two at a time. Whether the
/// returns push in pairs (unobserved) or one at a time (while a guarded pool or a listener is about), the thread gets
/// its objects back warmest first and the pool keeps the whole bound, as <c>DefaultObjectPool&lt;T&gt;</c> does.
/// </summary>
public class StripedObjectPoolPairMoveTests
{
    [Theory]
    [InlineData(8)]
    [InlineData(64)]
    [InlineData(2048)]
    public void RepeatedDrainsAndRefillsOfTheWholeBoundBuildNothingMoreThanTheDefaultPool(int maximumRetained)
    {
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = maximumRetained, TrimmingEnabled = false });
        var peerPolicy = new CountingPolicy<Thing>();
        var peer = new Microsoft.Extensions.ObjectPool.DefaultObjectPool<Thing>(peerPolicy, maximumRetained);
        Thing[] things = [.. Enumerable.Range(0, maximumRetained).Select(_ => pool.Get())];
        Thing[] peerThings = [.. Enumerable.Range(0, maximumRetained).Select(_ => peer.Get())];

        for (int round = 0; round < 3; round++)
        {
            Array.ForEach(things, pool.Return);
            Array.ForEach(peerThings, peer.Return);
            Thing[] again = [.. Enumerable.Range(0, maximumRetained).Select(_ => pool.Get())];
            peerThings = [.. Enumerable.Range(0, maximumRetained).Select(_ => peer.Get())];

            // The same objects, each once: nothing built, nothing handed out twice.
            Assert.Equal(things.OrderBy(thing => thing.Id), again.OrderBy(thing => thing.Id));
            things = again;
        }

        Assert.Equal(peerPolicy.Created, policy.Created);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: maximumRetained, pooled: 0, dropped: 0);
    }

    [Fact]
    public void ADrainHandsTheObjectsBackInTheReverseOrderOfTheirReturns()
    {
        // A bound of 8 has one stripe, so the thread's home cannot move between its operations.
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Assert.Equal(1, pool.StripeCount);
        Thing[] things = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];

        for (int round = 0; round < 3; round++)
        {
            Array.ForEach(things, pool.Return);
            for (int i = things.Length - 1; i >= 0; i--)
            {
                Assert.Same(things[i], pool.Get());
            }
        }

        Assert.Equal(8, policy.Created);
    }

    [Fact]
    public void ReturningTheSameObjectTwiceInARowThrowsEveryTimeEvenAfterItWentOntoTheStripeInAPair()
    {
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing a = pool.Get(), b = pool.Get(), c = pool.Get();
        pool.Return(a);
        pool.Return(b);

        // Unobserved, c goes onto the stripe with b and leaves the slot empty; observed, it takes the slot.
        pool.Return(c);

        Assert.Throws<InvalidOperationException>(() => pool.Return(c));
        Assert.Throws<InvalidOperationException>(() => pool.Return(c));

        // Kept once: three gets hand out the three objects, each once, and build none.
        Thing[] got = [pool.Get(), pool.Get(), pool.Get()];
        Assert.Equal(new[] { a, b, c }.OrderBy(thing => thing.Id), got.OrderBy(thing => thing.Id));
        Assert.Equal(3, policy.Created);
    }

    [Fact]
    public void AnObjectAnotherThreadGotFromTheStripeAndHandedBackIsKeptNotTakenForADoubleReturn()
    {
        var policy = new CountingPolicy<Thing>();
        using var pool = new StripedObjectPool<Thing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, TrimmingEnabled = false });
        Thing a = pool.Get(), b = pool.Get(), c = pool.Get();
        pool.Return(a);
        pool.Return(b);
        pool.Return(c);

        // Another thread gets the object on the stripe's top (the one this thread returned last) and hands it back here.
        Thing? handed = null;
        var other = new Thread(() => handed = pool.Get());
        other.Start();
        other.Join();
        pool.Return(handed!);

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 3, pooled: 3, dropped: 0);
    }
}
