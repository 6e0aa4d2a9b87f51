namespace NativePool.Tests.ArrayPool;

/// <summary><c>StripedArrayPool&lt;T&gt;.Create(maxArrayLength, maxArraysPerBucket)</c> is ours, validated like the BCL's.</summary>
public sealed class BclShapedCreateTests
{
    [Fact]
    public void TheBclShapedOverloadGivesAStripedPool()
    {
        ArrayPool<byte> pool = StripedArrayPool<byte>.Create(1024, 4);
        StripedArrayPool<byte> striped = Assert.IsType<StripedArrayPool<byte>>(pool);
        Assert.Equal(1024, striped.MaximumArrayLength);
    }

    [Theory]
    [InlineData(0, 1, "maxArrayLength")]
    [InlineData(-1, 1, "maxArrayLength")]
    [InlineData(16, 0, "maxArraysPerBucket")]
    [InlineData(16, -1, "maxArraysPerBucket")]
    public void NonPositiveArgumentsThrowLikeTheBcl(int maxArrayLength, int maxArraysPerBucket, string paramName)
    {
        Assert.Throws<ArgumentOutOfRangeException>(paramName, () => ArrayPool<byte>.Create(maxArrayLength, maxArraysPerBucket));
        Assert.Throws<ArgumentOutOfRangeException>(paramName, () => StripedArrayPool<byte>.Create(maxArrayLength, maxArraysPerBucket));
    }

    [Theory]
    [InlineData(1, 16)]
    [InlineData(100, 128)]
    [InlineData(int.MaxValue, 1 << 30)]
    public void MaxArrayLengthIsClampedAndRoundedUp(int maxArrayLength, int expected)
    {
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(maxArrayLength, 1);
        Assert.Equal(expected, pool.MaximumArrayLength);
    }

    [Theory]
    [InlineData(1, 2, 1, 1)]
    [InlineData(3, 2, 2, 2)]
    [InlineData(50, 2, 2, 25)]
    [InlineData(50, 8, 8, 7)]
    [InlineData(1_000_000, 4, 4, 65_536)]
    public void MaxArraysPerBucketMapsOntoStripes(int maxArraysPerBucket, int defaultStripes, int stripes, int perStripe)
    {
        StripedArrayPoolOptions options = StripedArrayPool<byte>.OptionsFromBclShape(1024, maxArraysPerBucket, defaultStripes);
        Assert.Equal(stripes, options.StripeCount);
        Assert.Equal(perStripe, options.ItemsPerStripe);
        Assert.Equal(long.MaxValue, options.MaximumRetainedBytesPerSizeClass);
    }

    [Fact]
    public void StripesKeepAtLeastMaxArraysPerBucketOfTheLargestClass()
    {
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(1 << 20, 8);
        byte[][] arrays = Enumerable.Range(0, 9).Select(_ => pool.Rent(1 << 20)).ToArray();
        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        // One in this thread's slot, eight in the stripes: no byte budget cuts the 1 MiB class down.
        Assert.Equal(9, pool.GetStatistics().Pooled);
    }
}
