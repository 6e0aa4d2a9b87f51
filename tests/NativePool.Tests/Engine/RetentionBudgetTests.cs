namespace NativePool.Tests.Engine;

/// <summary>
/// The byte budget that every pool's stripes count against: the cap holds across pools, the accounting is exact where
/// items enter and leave the stripes, trimming gives bytes back, and a budget three quarters spent trims sooner.
/// </summary>
public sealed class RetentionBudgetTests
{
    private const int ItemBytes = 1024;

    [Fact]
    public void TheStripesOfTwoPoolsNeverHoldMoreThanTheBudget()
    {
        var budget = new RetentionBudget(10 * ItemBytes);
        StripedPool<byte[]> first = CreatePool(budget);
        StripedPool<byte[]> second = CreatePool(budget);

        ReturnNew(first, 40);
        ReturnNew(second, 40);

        long inStripes = StripeItems(first) + StripeItems(second);
        Assert.Equal(10, inStripes);
        Assert.Equal(inStripes * ItemBytes, budget.Used);
        // Each pool's thread slot holds one more, outside the budget; everything else was dropped.
        Assert.Equal(80 - 10 - 2, first.GetStatistics().Dropped + second.GetStatistics().Dropped);
    }

    [Fact]
    public void RentingEverythingBackGivesEveryByteBack()
    {
        var budget = new RetentionBudget(100 * ItemBytes);
        StripedPool<byte[]> pool = CreatePool(budget);
        ReturnNew(pool, 30);
        Assert.Equal(29L * ItemBytes, budget.Used);

        for (int i = 0; i < 30; i++)
        {
            pool.Rent(0);
        }

        Assert.Equal(0, budget.Used);
    }

    [Fact]
    public void MagazineSpillsCountAgainstTheBudgetToo()
    {
        var budget = new RetentionBudget(6 * ItemBytes);
        StripedPool<byte[]> pool = CreatePool(budget, magazine: 4);

        ReturnNew(pool, 50);

        Assert.Equal(StripeItems(pool) * ItemBytes, budget.Used);
        Assert.True(budget.Used <= budget.Limit);
        Assert.Equal(6, StripeItems(pool));
    }

    [Fact]
    public void TrimmingAndDisposalGiveTheBytesBack()
    {
        var budget = new RetentionBudget(100 * ItemBytes);
        StripedPool<byte[]> trimmed = CreatePool(budget);
        StripedPool<byte[]> disposed = CreatePool(budget);
        ReturnNew(trimmed, 20);
        ReturnNew(disposed, 20);
        Assert.Equal(38L * ItemBytes, budget.Used);

        trimmed.Trim(releaseAll: true);
        disposed.Shutdown();

        Assert.Equal(0, budget.Used);
    }

    [Fact]
    public void ADoubleReturnTheBudgetRefusesIsStillCaughtAndNothingIsKeptTwice()
    {
        var budget = new RetentionBudget(1 * ItemBytes);
        StripedPool<byte[]> pool = CreatePool(budget);
        byte[] x = new byte[ItemBytes];
        byte[] y = new byte[ItemBytes];
        Assert.Equal(ReturnResult.Stored, pool.Return(0, x));  // x in the thread's slot
        Assert.Equal(ReturnResult.Stored, pool.Return(0, y));  // y in the slot, x onto the stripes: the budget is spent

        // Returning x again would park it in the slot and send y to the stripes, which the budget refuses: the return
        // must still be seen as the duplicate it is, or x would be in the slot and on a stripe at once.
        Assert.Equal(ReturnResult.Duplicate, pool.Return(0, x));

        Assert.Same(y, pool.Rent(0));
        Assert.Same(x, pool.Rent(0));
        Assert.NotSame(x, pool.Rent(0));
    }

    [Fact]
    public void ABudgetThreeQuartersSpentAgesItemsOutFourTimesSooner()
    {
        var clock = new ManualClock();
        var budget = new RetentionBudget(12 * ItemBytes);
        StripedPool<byte[]> pressed = CreatePool(budget, clock: clock);
        StripedPool<byte[]> relaxed = CreatePool(new RetentionBudget(1000 * ItemBytes), clock: clock);
        ReturnNew(pressed, 11);
        ReturnNew(relaxed, 11);
        Assert.True(budget.IsUnderPressure);

        pressed.Trim();
        relaxed.Trim();
        clock.Advance(TimeSpan.FromSeconds(10) / 4);

        // Half the stripes' items, and the item parked in this thread's slot (idle for half of that quartered age); the
        // relaxed pool's thread has been idle for less than half of its full age, so it keeps its slot too.
        Assert.Equal(5 + 1, pressed.Trim());
        Assert.Equal(0, relaxed.Trim());
        Assert.Equal(5L * ItemBytes, budget.Used);
    }

    [Fact]
    public void ObjectsOfUnknownSizeDoNotCount()
    {
        var budget = new RetentionBudget(1);
        var pool = new StripedPool<object>(
            new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [8], StripeCount = 2, TrimmingEnabled = false, Budget = budget },
            static _ => new object());

        for (int i = 0; i < 6; i++)
        {
            pool.Return(0, new object());
        }

        Assert.Equal(5, StripeItems(pool));
        Assert.Equal(0, budget.Used);
    }

    [Theory]
    [InlineData("1048576", null, 1048576L)]
    [InlineData(null, "4096", 4096L)]
    [InlineData("", "4096", 4096L)]
    [InlineData("2048", "4096", 2048L)]
    [InlineData(null, " 268435456", 268435456L)]
    [InlineData(null, "256MB", 256L << 20)]
    [InlineData(null, "256 MiB", 256L << 20)]
    [InlineData(null, "64 mib ", 64L << 20)]
    [InlineData(null, "1g", 1L << 30)]
    [InlineData(null, "1GiB", 1L << 30)]
    [InlineData(null, "2T", 2L << 40)]
    [InlineData(null, "512k", 512L << 10)]
    [InlineData(null, "100b", 100L)]
    [InlineData(null, null, null)]
    [InlineData("", "", null)]
    [InlineData(" ", "  ", null)]
    public void TheLimitComesFromTheRuntimeSettingThenTheEnvironment(string? setting, string? environment, long? expected)
    {
        long? limit = RetentionBudget.ReadLimit(
            name => name == RetentionBudget.SettingName ? setting : null,
            name => name == RetentionBudget.EnvironmentVariable ? environment : null);

        Assert.Equal(expected, limit);
    }

    [Theory]
    [InlineData(null, "garbage")]
    [InlineData(null, "-5")]
    [InlineData(null, "0")]
    [InlineData(null, "0MB")]
    [InlineData(null, "99999999999999999999")]
    [InlineData(null, "9000000T")]
    [InlineData(null, "1.5GB")]
    [InlineData(null, "256 MBs")]
    [InlineData(null, "MB")]
    [InlineData(null, "256MB extra")]
    [InlineData("lots", "4096")]
    public void AMalformedLimitIsRefusedWithItsSourceAndValueNamed(string? setting, string? environment)
    {
        InvalidOperationException refused = Assert.Throws<InvalidOperationException>(() => RetentionBudget.ReadLimit(
            name => name == RetentionBudget.SettingName ? setting : null,
            name => name == RetentionBudget.EnvironmentVariable ? environment : null));

        string source = setting is null ? RetentionBudget.EnvironmentVariable : RetentionBudget.SettingName;
        Assert.Contains(source, refused.Message, StringComparison.Ordinal);
        Assert.Contains($"'{setting ?? environment}'", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ANumericRuntimeSettingIsRead()
    {
        Assert.Equal(8192L, RetentionBudget.ReadLimit(static _ => 8192L, static _ => null));
    }

    private static StripedPool<byte[]> CreatePool(RetentionBudget budget, int magazine = 0, ManualClock? clock = null) =>
        new(
            new StripedPoolSettings
            {
                ClassCount = 1,
                CapacityPerStripe = [64],
                ItemBytes = [ItemBytes],
                MagazineCapacity = [magazine],
                StripeCount = 2,
                TrimmingEnabled = false,
                TrimAge = TimeSpan.FromSeconds(10),
                Clock = clock ?? new ManualClock(),
                Pressure = static () => MemoryPressure.Low,
                Budget = budget,
            },
            static _ => new byte[ItemBytes]);

    private static void ReturnNew(StripedPool<byte[]> pool, int count)
    {
        for (int i = 0; i < count; i++)
        {
            pool.Return(0, new byte[ItemBytes]);
        }
    }

    private static int StripeItems<T>(StripedPool<T> pool)
        where T : class => pool.GetStripes(0)?.CountItems() ?? 0;
}
