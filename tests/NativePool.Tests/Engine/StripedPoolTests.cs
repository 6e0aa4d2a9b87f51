namespace NativePool.Tests.Engine;

public class StripedPoolTests
{
    private sealed class Item
    {
    }

    /// <summary>Rents <paramref name="count"/> items on this thread, then returns them in the order they were rented.</summary>
    private static Item[] RentThenReturn(StripedPool<Item> pool, int count)
    {
        Item[] items = Enumerable.Range(0, count).Select(_ => pool.Rent(0)).ToArray();
        foreach (Item item in items)
        {
            pool.Return(0, item);
        }

        return items;
    }

    private static StripedPool<Item> CreatePool(
        int stripes = 2,
        int capacity = 8,
        ManualClock? clock = null,
        Func<MemoryPressure>? pressure = null,
        int threadSlotTokens = -1,
        Action<Item>? onDiscard = null) =>
        new(
            new StripedPoolSettings
            {
                ClassCount = 1,
                CapacityPerStripe = [capacity],
                StripeCount = stripes,
                TrimmingEnabled = false,
                TrimAge = TimeSpan.FromSeconds(10),
                Clock = clock ?? new ManualClock(),
                Pressure = pressure ?? (() => MemoryPressure.Low),
                ThreadSlotTokens = threadSlotTokens,
            },
            _ => new Item(),
            onDiscard);

    [Fact]
    public void TheItemReturnedLastIsTheNextOneRentedOnTheSameThread()
    {
        StripedPool<Item> pool = CreatePool();
        Item a = pool.Rent(0);
        Item b = pool.Rent(0);
        pool.Return(0, a);
        pool.Return(0, b);
        Assert.Same(b, pool.Rent(0));
        Assert.Same(a, pool.Rent(0));
    }

    [Fact]
    public void ARentThatFlushesTheMagazineIntoNewStripesFindsWhatTheFlushMoved()
    {
        // Everything returned fits in the slot and the magazine, so the class has no stripes until a flush makes them.
        const int Magazine = 4;
        var pool = new StripedPool<Item>(
            new StripedPoolSettings
            {
                ClassCount = 1,
                CapacityPerStripe = [8],
                MagazineCapacity = [Magazine],
                StripeCount = 2,
                TrimmingEnabled = false,
                Clock = new ManualClock(),
                Pressure = static () => MemoryPressure.Low,
            },
            _ => new Item());
        Item[] items = RentThenReturn(pool, Magazine + 1);
        Assert.Null(pool.GetStripes(0));

        // A pass that has not yet seen the thread idle asks it to flush its magazine; its next rent beyond the slot does.
        Assert.Equal(0, pool.Trim());
        Item[] again = Enumerable.Range(0, Magazine + 1).Select(_ => pool.Rent(0)).ToArray();

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: Magazine + 1, pooled: 0, dropped: 0);
        Assert.Equal(items.ToHashSet(), again.ToHashSet());
    }

    [Fact]
    public void ItemsReturnedOnOneThreadAreRentedOnAnother()
    {
        StripedPool<Item> pool = CreatePool();
        var items = new List<Item>();
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < 4; i++)
            {
                items.Add(pool.Rent(0));
            }

            foreach (Item item in items)
            {
                pool.Return(0, item);
            }
        });

        // Three went to the stripes (one stays parked on the finished thread's slot).
        var rented = new HashSet<Item>();
        for (int i = 0; i < 3; i++)
        {
            rented.Add(pool.Rent(0));
        }

        Assert.Equal(3, rented.Count);
        Assert.Subset(items.ToHashSet(), rented);
    }

    [Fact]
    public void RetentionNeverExceedsStripesTimesCapacityPlusThreadSlots()
    {
        StripedPool<Item> pool = CreatePool(stripes: 2, capacity: 3);
        Item[] items = Enumerable.Range(0, 20).Select(_ => pool.Rent(0)).ToArray();
        int dropped = 0;
        foreach (Item item in items)
        {
            if (pool.Return(0, item) == ReturnResult.Dropped)
            {
                dropped++;
            }
        }

        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal((2 * 3) + 1, stats.Pooled);
        Assert.Equal(20 - 7, dropped);
        Assert.Equal(dropped, stats.Dropped);
        Assert.Equal(0, stats.Outstanding);
    }

    [Fact]
    public void ReturningTheParkedItemAgainIsADuplicateAndChangesNothing()
    {
        StripedPool<Item> pool = CreatePool();
        Item item = pool.Rent(0);
        Assert.Equal(ReturnResult.Stored, pool.Return(0, item));
        Assert.Equal(ReturnResult.Duplicate, pool.Return(0, item));
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, outstanding: 0);
    }

    [Fact]
    public void ReturningAnItemThatSitsOnTopOfTheStripeAgainIsADuplicate()
    {
        StripedPool<Item> pool = CreatePool(stripes: 1);
        Item a = pool.Rent(0);
        Item b = pool.Rent(0);
        pool.Return(0, a);
        pool.Return(0, b); // b parked, a pushed to the stripe

        Assert.Equal(ReturnResult.Duplicate, pool.Return(0, a));
        Assert.Same(b, pool.Rent(0));
        Assert.Same(a, pool.Rent(0));
        Assert.NotSame(a, pool.Rent(0));
    }

    [Fact]
    public void WithoutAThreadSlotTokenReturnsGoStraightToTheStripes()
    {
        StripedPool<Item> pool = CreatePool(stripes: 1, capacity: 2, threadSlotTokens: 0);
        Item a = pool.Rent(0);
        Item b = pool.Rent(0);
        Item c = pool.Rent(0);
        pool.Return(0, a);
        pool.Return(0, b);
        Assert.Equal(ReturnResult.Dropped, pool.Return(0, c));
        Assert.Equal(2, pool.GetStatistics().Pooled);
        Assert.Same(b, pool.Rent(0));
    }

    [Fact]
    public void AnIdleStripeLosesHalfOfItsColdestItemsPerTrimAge()
    {
        var clock = new ManualClock();
        StripedPool<Item> pool = CreatePool(stripes: 1, capacity: 8, clock: clock);
        Item[] items = RentThenReturn(pool, 9);

        // Stripe holds items[0..7] (items[8] is parked on this thread). First pass: the stripe was touched.
        Assert.Equal(0, pool.Trim());
        clock.Advance(TimeSpan.FromSeconds(5));

        // Half the trim age without an operation: the thread's tier (its slot's item) goes; the stripe is younger.
        Assert.Equal(1, pool.Trim());
        clock.Advance(TimeSpan.FromSeconds(6));

        // Idle for the trim age: half of the stripe (the coldest, returned first) goes.
        Assert.Equal(4, pool.Trim());
        Assert.Equal(4, pool.GetStatistics().Pooled);
        StripeSet<Item> set = pool.GetStripes(0)!;
        Assert.Equal(4, set.CountItems());
        var remaining = new HashSet<Item>();
        while (set.Pop(0) is Item item)
        {
            remaining.Add(item);
        }

        Assert.Equal(items[4..8].ToHashSet(), remaining);
    }

    [Fact]
    public void TrimmingLeavesAStripeThatIsInUseAlone()
    {
        var clock = new ManualClock();
        StripedPool<Item> pool = CreatePool(stripes: 1, capacity: 8, clock: clock);
        Item[] items = RentThenReturn(pool, 4);

        for (int period = 0; period < 5; period++)
        {
            clock.Advance(TimeSpan.FromSeconds(11));

            // Touch the stripe: rent past the parked item and give both back, the stripe's in the slot. (A hit writes
            // nothing, so a slot holding the very same item at two passes looks idle; here it changes every period.)
            Item first = pool.Rent(0);
            Item second = pool.Rent(0);
            pool.Return(0, first);
            pool.Return(0, second);
            Assert.Same(second, pool.Rent(0));
            pool.Return(0, second);
            Assert.Equal(0, pool.Trim());
        }

        Assert.Equal(4, pool.GetStatistics().Pooled);
    }

    [Fact]
    public void HighMemoryPressureReleasesEverythingAtOnce()
    {
        MemoryPressure pressure = MemoryPressure.Low;
        StripedPool<Item> pool = CreatePool(stripes: 2, capacity: 8, pressure: () => pressure);
        Item[] items = RentThenReturn(pool, 10);

        Assert.Equal(0, pool.Trim());
        pressure = MemoryPressure.High;
        Assert.Equal(10, pool.Trim());
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 0, trimmed: 10, outstanding: 0);
    }

    [Fact]
    public void MediumMemoryPressureTrimsAfterAQuarterOfTheTrimAge()
    {
        var clock = new ManualClock();
        MemoryPressure pressure = MemoryPressure.Medium;
        StripedPool<Item> pool = CreatePool(stripes: 1, capacity: 8, clock: clock, pressure: () => pressure);
        Item[] items = RentThenReturn(pool, 5);

        Assert.Equal(0, pool.Trim());
        clock.Advance(TimeSpan.FromSeconds(3)); // more than 10 s / 4

        // Half the stripe, and the slot of this thread, idle for more than half of the quartered age.
        Assert.Equal(2 + 1, pool.Trim());
    }

    [Fact]
    public void TrimmedAndDroppedItemsGoThroughTheDiscardCallback()
    {
        var discarded = new List<Item>();
        StripedPool<Item> pool = CreatePool(stripes: 1, capacity: 1, onDiscard: discarded.Add);
        Item a = pool.Rent(0);
        Item b = pool.Rent(0);
        Item c = pool.Rent(0);
        pool.Return(0, a);
        pool.Return(0, b);
        pool.Return(0, c); // c parked, b displaced to the full stripe: dropped
        Assert.Equal([b], discarded);

        pool.Trim(releaseAll: true);
        Assert.Equal(3, discarded.Count);
        Assert.Equal(new[] { a, b, c }.ToHashSet(), discarded.ToHashSet());
    }

    [Fact]
    public void CountersAreConservedAfterConcurrentUseAndTrims()
    {
        StripedPool<Item> pool = CreatePool(stripes: 2, capacity: 4);
        int running = 3;
        TestThreads.Run(4, t =>
            {
                if (t == 3)
                {
                    // The fourth thread trims while the others rent and return.
                    // Volatile: reads the count the other threads lower when their loops end.
                    while (Volatile.Read(ref running) != 0)
                    {
                        pool.Trim(releaseAll: true);
                    }

                    return;
                }

                var random = new Random(t);
                var held = new List<Item>();
                for (int i = 0; i < 100_000; i++)
                {
                    if (held.Count > 0 && (held.Count > 6 || random.Next(2) == 0))
                    {
                        int index = random.Next(held.Count);
                        pool.Return(0, held[index]);
                        held.RemoveAt(index);
                    }
                    else
                    {
                        held.Add(pool.Rent(0));
                    }
                }

                foreach (Item item in held)
                {
                    pool.Return(0, item);
                }

                // Interlocked: three threads lower the count, each once.
                Interlocked.Decrement(ref running);
            });

        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(0, stats.Outstanding);
        Assert.True(stats.IsConserved, stats.ToString());
    }

    [Fact]
    public void ItemsParkedOnAThreadThatDiesAreCountedAsDropped()
    {
        StripedPool<Item> pool = CreatePool();
        TestThreads.RunOnNewThread(() => pool.Return(0, pool.Rent(0)));

        Finalization.WaitUntil(
            () => pool.CountLiveThreadCaches() == 0,
            () => $"{pool.CountLiveThreadCaches()} thread caches not finalized");
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, dropped: 1, outstanding: 0);
    }

    [Fact]
    public void EachPoolHasItsOwnThreadSlots()
    {
        StripedPool<Item> first = CreatePool();
        StripedPool<Item> second = CreatePool();
        Assert.NotEqual(first.Id, second.Id);
        Item fromFirst = first.Rent(0);
        first.Return(0, fromFirst);
        Assert.NotSame(fromFirst, second.Rent(0));
        Assert.Same(fromFirst, first.Rent(0));
    }
}
