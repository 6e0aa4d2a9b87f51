namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The worst-case retention the README's configuration section states for an array pool, from the pool itself, and a
/// pool that is offered far more than it may keep holds no more than that.
/// </summary>
public sealed class WorstCaseRetentionTests
{
    [Theory]
    [InlineData(1 << 30, 4_898_930_688L, 2_147_811_056L)]
    [InlineData(1 << 20, 402_636_800L, 2_424_560L)]
    public void TheStatedWorstCaseOfADefaultBytePoolOnTwoStripesIsTheEngines(int maximumArrayLength, long stripes, long perThread)
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { StripeCount = 2, MaximumArrayLength = maximumArrayLength, TrimmingEnabled = false });

        Assert.Equal(stripes, pool.Engine.MaximumStripeBytes);
        Assert.Equal(perThread, pool.Engine.MaximumThreadBytes);
    }

    [Fact]
    public void APoolOfferedMoreThanItMayKeepHoldsNoMoreThanItsWorstCase()
    {
        var pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions
        {
            StripeCount = 2,
            MaximumArrayLength = 4096,
            MaximumRetainedBytesPerSizeClass = 64 * 1024,
            TrimmingEnabled = false,
        });
        for (int length = 16; length <= 4096; length *= 2)
        {
            int[][] rented = [.. Enumerable.Range(0, 600).Select(_ => pool.Rent(length))];
            foreach (int[] array in rented)
            {
                pool.Return(array);
            }
        }

        PoolStatistics statistics = pool.GetStatistics();
        Assert.True(statistics.Dropped > 0, "The pool was not offered more than it keeps.");
        Assert.InRange(statistics.PooledBytes, 1, pool.Engine.MaximumStripeBytes + pool.Engine.MaximumThreadBytes);
    }
}
