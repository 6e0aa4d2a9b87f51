namespace NativePool.Tests.Engine;

public class StripeSetTests
{
    private sealed class Item(int id)
    {
        public int Id { get; } = id;

        public override string ToString() => $"item {Id}";
    }

    [Fact]
    public void PoppingGivesItemsBackInLifoOrder()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 8);
        Item[] items = Enumerable.Range(0, 5).Select(i => new Item(i)).ToArray();
        foreach (Item item in items)
        {
            Assert.Equal(StripeResult.Done, set.TryPush(0, item));
        }

        foreach (Item expected in items.Reverse())
        {
            Assert.Equal(StripeResult.Done, set.TryPop(0, out Item? popped));
            Assert.Same(expected, popped);
        }

        Assert.Equal(StripeResult.Empty, set.TryPop(0, out Item? none));
        Assert.Null(none);
    }

    [Fact]
    public void TheTopCheckWithoutAClaimSeesTheTopWhileATrimSlidesTheStripeDown()
    {
        // An aging trim moves a stripe's items down, clears the old places and then lowers the count; its top item stays
        // on top throughout. A check that read the count before the clear and the top place after it must not answer
        // "not on top". Each phase pushes a full stripe with x last, trims it down to one item, then pops x.
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 16);
        var owner = new PoolOwner(-1);
        var x = new Item(-1);
        Item[] fillers = [.. Enumerable.Range(0, 15).Select(i => new Item(i))];
        long phase = 0;
        long checks = 0, misses = 0;
        using (StartedThreads reader = TestThreads.Start(1, (_, stop) =>
        {
            while (!stop.IsCancellationRequested)
            {
                // Volatile: the test thread moves the phase; an odd phase is one with x on top of the stripe throughout.
                long before = Volatile.Read(ref phase);
                bool onTop = (before & 1) != 0 && set.IsOnTop(0, x);

                // Volatile: as above; the check counts only if no phase change came during it.
                if ((before & 1) != 0 && Volatile.Read(ref phase) == before)
                {
                    misses += onTop ? 0 : 1;

                    // Interlocked: the test thread reads the count to know the reader has been at work.
                    Interlocked.Increment(ref checks);
                }
            }
        }))
        {
            // At least 20 000 phases, and as many more as the reader needs to have checked 1 000 times, however the
            // scheduler runs it.
            for (int i = 0; i < 20_000 || Interlocked.Read(ref checks) < 1_000; i++)
            {
                foreach (Item filler in fillers)
                {
                    PushWaiting(set, filler);
                }

                PushWaiting(set, x);

                // Interlocked: the reader reads the phase on its own thread.
                Interlocked.Increment(ref phase);
                while (set.CountOf(0) > 1)
                {
                    set.Trim(nowMs: 1, trimAgeMs: 0, releaseAll: false, waitForClaims: true, onRemoved: null, owner);
                }

                // Interlocked: as above; x leaves the top only after this.
                Interlocked.Increment(ref phase);
                while (set.TryPop(0, out Item? _) == StripeResult.Contended)
                {
                }
            }
        }

        Assert.Equal(0, misses);
    }

    /// <summary>Pushes <paramref name="item"/>, waiting out a claim held by a check on another thread.</summary>
    private static void PushWaiting(StripeSet<Item> set, Item item)
    {
        while (set.TryPush(0, item) == StripeResult.Contended)
        {
        }
    }

    [Fact]
    public void AStripeNeverHoldsMoreThanItsCapacity()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 3);
        for (int i = 0; i < 3; i++)
        {
            Assert.Equal(StripeResult.Done, set.TryPush(0, new Item(i)));
        }

        Assert.Equal(StripeResult.Full, set.TryPush(0, new Item(99)));
        Assert.Equal(StripeResult.Full, set.Push(0, new Item(100), new Item(100)));
        Assert.Equal(3, set.CountItems());
    }

    [Fact]
    public void StealingTakesFromTheNearestStripeAfterHomeFirst()
    {
        var set = new StripeSet<Item>(stripeCount: 4, capacityPerStripe: 4);
        var onTwo = new Item(2);
        var onThree = new Item(3);
        var onZero = new Item(0);
        set.TryPush(2, onTwo);
        set.TryPush(3, onThree);
        set.TryPush(0, onZero);

        // Home 1 is empty: the walk goes 2, 3, 0.
        Assert.Same(onTwo, set.Pop(1));
        Assert.Same(onThree, set.Pop(1));
        Assert.Same(onZero, set.Pop(1));
        Assert.Null(set.Pop(1));
    }

    [Fact]
    public void StealingWrapsAroundFromTheLastStripe()
    {
        var set = new StripeSet<Item>(stripeCount: 4, capacityPerStripe: 4);
        var onOne = new Item(1);
        var onTwo = new Item(2);
        set.TryPush(2, onTwo);
        set.TryPush(1, onOne);

        // Home 3: the nearest stripes after it are 0 (empty), 1, then 2.
        Assert.Same(onOne, set.Pop(3));
        Assert.Same(onTwo, set.Pop(3));
    }

    [Fact]
    public void ReturnsSpillToTheNearestStripeWithRoomWhenHomeIsFull()
    {
        var set = new StripeSet<Item>(stripeCount: 4, capacityPerStripe: 1);
        set.TryPush(1, new Item(10));
        set.TryPush(2, new Item(20));

        var spilled = new Item(30);
        Assert.Equal(StripeResult.Done, set.Push(1, spilled, spilled));
        Assert.Equal(1, set.CountOf(3));
        Assert.Equal(StripeResult.Done, set.TryPop(3, out Item? fromThree));
        Assert.Same(spilled, fromThree);
    }

    [Fact]
    public void AFullPoolDropsWithoutTouchingAnyStripe()
    {
        var set = new StripeSet<Item>(stripeCount: 2, capacityPerStripe: 1);
        set.TryPush(0, new Item(0));
        set.TryPush(1, new Item(1));

        // Each stripe is found full once (a push from the other home walks to it), which marks it.
        var first = new Item(3);
        Assert.Equal(StripeResult.Full, set.Push(0, first, first));
        Assert.Equal(StripeResult.Full, set.Push(1, first, first));
        Assert.Equal(0b11L, set.FullMask);

        // Claim stripe 1 as if another thread were inside it: a full pool must not even try it.
        set.GetHeader(1).Claim = 1;
        var extra = new Item(2);
        Assert.Equal(StripeResult.Full, set.Push(0, extra, extra));
        set.GetHeader(1).Claim = 0;
    }

    [Fact]
    public void AClaimedStripeIsSkippedNotWaitedFor()
    {
        var set = new StripeSet<Item>(stripeCount: 2, capacityPerStripe: 4);
        var onOne = new Item(1);
        set.TryPush(0, new Item(0));
        set.TryPush(1, onOne);

        set.GetHeader(0).Claim = 1;
        Assert.Equal(StripeResult.Contended, set.TryPop(0, out _));
        Assert.Same(onOne, set.Pop(0));
        set.GetHeader(0).Claim = 0;
        Assert.Equal(1, set.CountOf(0));
    }

    [Fact]
    public void OccupancyMasksNeverHideItemsOrRoomAndFlipNothingWhileAStripeIsEmptiedAndRefilled()
    {
        var set = new StripeSet<Item>(stripeCount: 4, capacityPerStripe: 2);
        Assert.Equal(0L, set.HasItemsMask);
        Assert.Equal(0L, set.FullMask);

        set.TryPush(2, new Item(1));
        Assert.Equal(0b0100L, set.HasItemsMask);
        Assert.Equal(0L, set.FullMask);

        // Filled, but not yet found full: the bit is set by the first push that finds no room.
        set.TryPush(2, new Item(2));
        Assert.Equal(0L, set.FullMask);
        Assert.Equal(StripeResult.Full, set.TryPush(2, new Item(3)));
        Assert.Equal(0b0100L, set.FullMask);

        // Room again: the bit goes at once, so no return skips a stripe that has room.
        set.TryPop(2, out _);
        Assert.Equal(0L, set.FullMask);
        Assert.Equal(0b0100L, set.HasItemsMask);

        // Emptied, but not yet found empty: the bit stays, so refilling the stripe needs no interlocked instruction.
        set.TryPop(2, out _);
        Assert.Equal(0b0100L, set.HasItemsMask);
        set.TryPush(2, new Item(4));
        set.TryPop(2, out _);
        Assert.Equal(0b0100L, set.HasItemsMask);

        // Found empty: the bit goes, so a rent that misses on an empty pool reads one word.
        Assert.Equal(StripeResult.Empty, set.TryPop(2, out _));
        Assert.Equal(0L, set.HasItemsMask);
    }

    [Fact]
    public void APopOrPushThatTheHomeStripeCannotServeMovesTheHomeToTheStripeThatServedIt()
    {
        var set = new StripeSet<Item>(stripeCount: 4, capacityPerStripe: 1);
        var item = new Item(1);
        int home = 0;
        set.TryPush(0, new Item(0));
        Assert.Equal(StripeResult.Done, set.Push(ref home, item, item));
        Assert.Equal(1, home);
        Assert.Equal(1, set.CountOf(1));

        int drained = home;
        Assert.Same(item, set.Pop(ref home));
        Assert.Equal(drained, home);
        Assert.NotNull(set.Pop(ref home));
        Assert.Equal(0, home);
    }

    [Fact]
    public void OccupancyMasksNeverHideItemsOrRoomAfterRacingPushesAndPops()
    {
        const int Stripes = 4;
        const int Capacity = 3;
        var set = new StripeSet<Item>(Stripes, Capacity);
        var created = new int[4];
        var keptByThreads = new int[4];
        TestThreads.Run(4, t =>
            {
                var random = new Random(t);
                var held = new Stack<Item>();
                for (int i = 0; i < 200_000; i++)
                {
                    int stripe = random.Next(Stripes);
                    if (held.Count > 0 && random.Next(2) == 0)
                    {
                        Item item = held.Pop();
                        if (set.Push(stripe, item, item) != StripeResult.Done)
                        {
                            held.Push(item);
                        }
                    }
                    else
                    {
                        Item? item = set.Pop(stripe);
                        if (item is null)
                        {
                            item = new Item(i);
                            created[t]++;
                        }

                        held.Push(item);
                    }
                }

                keptByThreads[t] = held.Count;
            });

        // Every item ever made is in a thread's hands or counted by a stripe: the counts lose none and invent none.
        Assert.Equal(created.Sum() - keptByThreads.Sum(), Enumerable.Range(0, Stripes).Sum(set.CountOf));
        for (int s = 0; s < Stripes; s++)
        {
            int count = set.CountOf(s);
            Assert.InRange(count, 0, Capacity);
            if (count > 0)
            {
                Assert.NotEqual(0L, set.HasItemsMask & (1L << s));
            }

            if (count < Capacity)
            {
                Assert.Equal(0L, set.FullMask & (1L << s));
            }
        }
    }

    [Fact]
    public void PopAndPushFromAHomeKeepTheOccupancyBitsCatchADuplicateAndWalkToANewHome()
    {
        var set = new StripeSet<Item>(stripeCount: 2, capacityPerStripe: 2);
        var first = new Item(1);
        var second = new Item(2);
        var third = new Item(3);
        int home = 0;

        // Onto an empty stripe: the push sets the stripe's bit.
        Assert.Equal(StripeResult.Done, set.Push(ref home, first, first));
        Assert.Equal(0b01L, set.HasItemsMask);

        // The item on top again: a double return, and the stripe is unchanged.
        Assert.Equal(StripeResult.Duplicate, set.Push(ref home, first, first));
        Assert.Equal(1, set.CountOf(0));

        // The push fills the home stripe (a push found it full: its bit is set); the next push walks to stripe 1, its new
        // home.
        Assert.Equal(StripeResult.Done, set.Push(ref home, second, second));
        Assert.Equal(StripeResult.Full, set.TryPush(0, new Item(9)));
        Assert.Equal(0b01L, set.FullMask);
        Assert.Equal(StripeResult.Done, set.Push(ref home, third, third));
        Assert.Equal(1, home);

        // LIFO per stripe; the emptied home walks back to stripe 0, and that pop from a full stripe clears its bit.
        Assert.Same(third, set.Pop(ref home, pair: false, out _));
        Assert.Same(second, set.Pop(ref home, pair: false, out _));
        Assert.Equal(0, home);
        Assert.Equal(0L, set.FullMask);
        Assert.Same(first, set.Pop(ref home, pair: false, out _));
        Assert.Null(set.Pop(ref home, pair: false, out _));
        Assert.Equal(0, set.CountItems());
    }

    [Fact]
    public void ThePairPopTakesOneItemOffAFullStripe()
    {
        // A small stripe is full at nearly every get; pairs off it would move the pool into single threads' slots.
        (StripeSet<Item> set, Item[] items) = OneStripeHolding(capacity: 3, count: 3);

        // A push that finds it full marks it so.
        Assert.Equal(StripeResult.Full, set.TryPush(0, new Item(9)));
        Assert.Equal(0b1L, set.FullMask);

        int home = 0;
        Assert.Same(items[2], set.Pop(ref home, pair: true, out Item? second));
        Assert.Null(second);
        Assert.Equal(2, set.CountOf(0));
        Assert.Equal(0L, set.FullMask);
    }

    [Fact]
    public void ThePairPopTakesTheTwoTopItemsUnderOneClaimButNeverTheStripesLastItem()
    {
        (StripeSet<Item> set, Item[] items) = OneStripeHolding(capacity: 8, count: 4);

        int home = 0;
        Assert.Same(items[3], set.Pop(ref home, pair: true, out Item? second));
        Assert.Same(items[2], second);
        Assert.Equal(2, set.CountOf(0));

        // Two left: a pair would empty the stripe, so only the top comes off.
        Assert.Same(items[1], set.Pop(ref home, pair: true, out second));
        Assert.Null(second);
        Assert.Equal(1, set.CountOf(0));

        // Without the caller's room for a second, one item, however many the stripe holds.
        Assert.Equal(StripeResult.Done, set.TryPush(0, items[2]));
        Assert.Equal(StripeResult.Done, set.TryPush(0, items[3]));
        Assert.Same(items[3], set.Pop(ref home, pair: false, out second));
        Assert.Null(second);
        Assert.Equal(2, set.CountOf(0));
    }

    [Fact]
    public void ThePairPushPutsBothItemsOnWithTheSecondOnTopOrLeavesTheStripeAsItWas()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 4);
        var first = new Item(1);
        var below = new Item(2);
        var top = new Item(3);
        int home = 0;

        // An empty stripe: both go on, and the same claim sets the stripe's occupancy bit.
        Assert.True(set.TryPushPair(ref home, below, top));
        Assert.Equal(2, set.CountOf(0));
        Assert.Equal(0b1L, set.HasItemsMask);

        // Room for one only: refused, the stripe unchanged (and not marked full: it has room).
        Assert.Equal(StripeResult.Done, set.TryPush(0, first));
        Assert.False(set.TryPushPair(ref home, new Item(4), new Item(5)));
        Assert.Equal(3, set.CountOf(0));
        Assert.Equal(0L, set.FullMask);
        Assert.Same(first, set.Pop(ref home, pair: false, out _));
        Assert.Same(top, set.Pop(ref home, pair: false, out _));

        // The returned item already on top (a double return): refused, the stripe unchanged.
        Assert.Equal(StripeResult.Done, set.TryPush(0, top));
        Assert.False(set.TryPushPair(ref home, new Item(6), top));
        Assert.Equal(2, set.CountOf(0));
        Assert.Same(top, set.Pop(ref home, pair: false, out _));
        Assert.Same(below, set.Pop(ref home, pair: false, out _));
    }

    [Fact]
    public void ReturningTheItemOnTopOfAStripeAgainIsReportedAsADuplicate()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 4);
        var item = new Item(1);
        Assert.Equal(StripeResult.Done, set.TryPush(0, item));
        Assert.Equal(StripeResult.Duplicate, set.TryPush(0, item));
        Assert.Equal(1, set.CountItems());
    }

    [Fact]
    public void NoItemIsPoppedTwiceUnderContention()
    {
        var set = new StripeSet<Item>(stripeCount: 2, capacityPerStripe: 64);
        var owners = new int[256];
        Item[] all = Enumerable.Range(0, owners.Length).Select(i => new Item(i)).ToArray();
        foreach (Item item in all)
        {
            set.Push(item.Id & 1, item, item);
        }

        int violations = 0;
        TestThreads.Run(4, _ =>
            {
                for (int i = 0; i < 100_000; i++)
                {
                    Item? item = set.Pop(i & 1);
                    if (item is null)
                    {
                        continue;
                    }

                    // Interlocked: claims the item; another thread popping it at once finds the claim taken.
                    if (Interlocked.Exchange(ref owners[item.Id], 1) != 0)
                    {
                        // Interlocked: several threads may find a doubled item at once.
                        Interlocked.Increment(ref violations);
                    }

                    // Volatile: the release must be visible to the next thread that pops the item.
                    Volatile.Write(ref owners[item.Id], 0);
                    set.Push((i >> 1) & 1, item, item);
                }
            });

        Assert.Equal(0, violations);
    }

    /// <summary>A set of one stripe of <paramref name="capacity"/> holding <paramref name="count"/> new items, pushed in order (the last on top).</summary>
    private static (StripeSet<Item> Set, Item[] Items) OneStripeHolding(int capacity, int count)
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: capacity);
        Item[] items = [.. Enumerable.Range(0, count).Select(i => new Item(i))];
        foreach (Item item in items)
        {
            Assert.Equal(StripeResult.Done, set.TryPush(0, item));
        }

        return (set, items);
    }
}
