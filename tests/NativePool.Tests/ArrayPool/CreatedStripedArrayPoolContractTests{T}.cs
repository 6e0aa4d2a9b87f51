using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The contract run against a pool made by <see cref="StripedArrayPool{T}.Create(StripedArrayPoolOptions)"/>, fresh for
/// every test, plus the rules that need a pool nobody else touches: the maximum, the statistics, the retention bound.
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class CreatedStripedArrayPoolContractTests<T> : StripedArrayPoolContractTests<T>
{
    private StripedArrayPoolOptions? _options;
    private StripedArrayPool<T>? _pool;

    /// <summary>The options of this configuration (a new object per call).</summary>
    protected abstract StripedArrayPoolOptions CreateOptions();

    /// <summary>This test's options.</summary>
    protected StripedArrayPoolOptions Options => _options ??= CreateOptions();

    /// <inheritdoc />
    protected sealed override StripedArrayPool<T> StripedPool => _pool ??= StripedArrayPool<T>.Create(Options);

    /// <inheritdoc />
    protected sealed override bool ClearsEveryReturn => Options.ClearOnReturn;

    /// <inheritdoc />
    protected sealed override bool ClearsReferencesOnReturn => Options.ClearReferencesOnReturn;

    [Fact]
    public void TheMaximumArrayLengthIsTheConfiguredOneAndIsKept()
    {
        // Both configurations use a power of two, which the pool keeps as is.
        int maximum = StripedPool.MaximumArrayLength;
        Assert.Equal(Options.MaximumArrayLength, maximum);
        T[] array = StripedPool.Rent(maximum);
        Assert.Equal(maximum, array.Length);
        StripedPool.Return(array);
        T[] again = StripedPool.Rent(maximum);
        Assert.Same(array, again);
        StripedPool.Return(again);
    }

    [Fact]
    public void ArraysLongerThanTheMaximumAreAllocatedExactlyAndDropped()
    {
        int maximum = StripedPool.MaximumArrayLength;
        foreach (int length in new[] { maximum + 1, (2 * maximum) + 3 })
        {
            PoolStatistics before = StripedPool.GetStatistics();
            T[] array = StripedPool.Rent(length);
            T[] cleared = StripedPool.Rent(length);
            Assert.Equal(length, array.Length);
            Assert.Equal(length, cleared.Length);
            StripedPool.Return(array);
            StripedPool.Return(cleared, clearArray: true);

            StatisticsAssert.Counts(StripedPool.GetStatistics(), pooled: before.Pooled, dropped: before.Dropped + 2);

            T[] again = StripedPool.Rent(length);
            Assert.Equal(length, again.Length);
            Assert.NotSame(array, again);
            StripedPool.Return(again);
        }

        // Six oversize rents, each returned and dropped: nothing is out.
        StatisticsAssert.Counts(StripedPool.GetStatistics(), dropped: 6, outstanding: 0);
        AssertPoolStillWorks();
    }

    [Fact]
    public void TheStatisticsCountASequenceExactly()
    {
        var held = new List<T[]>();
        for (int i = 0; i < 10; i++)
        {
            held.Add(StripedPool.Rent(100));
        }

        StatisticsAssert.Counts(StripedPool.GetStatistics(), allocated: 10, pooled: 0, dropped: 0, outstanding: 10);

        foreach (T[] array in held)
        {
            StripedPool.Return(array);
        }

        PoolStatistics afterwards = StripedPool.GetStatistics();
        StatisticsAssert.Counts(afterwards, allocated: 10, outstanding: 0);
        Assert.Equal(afterwards.Pooled, 10 - afterwards.Dropped);
        Assert.Equal(afterwards.Pooled * 128L * Unsafe.SizeOf<T>(), afterwards.PooledBytes);
    }

    [Theory]
    [InlineData(16)]
    [InlineData(4096)]
    public void RetentionStaysWithinTheConfiguredBound(int length)
    {
        // Documented: max(1, min(arrays per stripe, budget / (stripes × array bytes))) per stripe, plus this thread's slot
        // and its magazine (min(16, 64 KiB / array bytes) arrays, none below two).
        int stripes = StripedPool.StripeCount;
        int arraysPerStripe = Options.ItemsPerStripe == 0 ? Math.Max(32, 1024 / stripes) : Options.ItemsPerStripe;
        long arrayBytes = (long)length * Unsafe.SizeOf<T>();
        long capacity = Math.Max(1, Math.Min(arraysPerStripe, Options.MaximumRetainedBytesPerSizeClass / (stripes * arrayBytes)));
        long magazine = 64 * 1024 / arrayBytes < 2 ? 0 : Math.Min(16, 64 * 1024 / arrayBytes);
        Assert.Equal(magazine, StripedPool.Engine.MagazineCapacity(SizeClasses.GetIndex(length)));
        long bound = (stripes * capacity) + 1 + magazine;

        var held = new List<T[]>();
        for (long i = 0; i < bound + 100; i++)
        {
            held.Add(StripedPool.Rent(length));
        }

        foreach (T[] array in held)
        {
            StripedPool.Return(array);
        }

        // One thread's returns reach its home stripe and up to MaxStealAttempts others, so at least that many fill up;
        // the magazine may have just moved its coldest half to the (full) stripes, so only the slot is sure on top.
        int reachable = Math.Min(stripes, 1 + StripeSet<T[]>.MaxStealAttempts);
        PoolStatistics statistics = StripedPool.GetStatistics();
        Assert.InRange(statistics.Pooled, (reachable * capacity) + 1, bound);
        Assert.Equal(held.Count - statistics.Pooled, statistics.Dropped);
        Assert.Equal(0, statistics.Outstanding);
    }
}
