namespace NativePool.Tests.ArrayPool;

/// <summary>
/// A thread finds its cache of an independent pool inline (without the out-of-line miss) for the last two such pools of
/// one element type it used, so code that takes turns with two <c>Create()</c> pools stays on the fast paths; a third
/// pushes the oldest out. Read from the pools' own look-up on a thread of the test's own; no timing.
/// </summary>
public sealed class IndependentPoolLookupTests
{
    [Fact]
    public void AThreadTakingTurnsWithTwoCreatedPoolsFindsBothCachesInline()
    {
        StripedArrayPool<byte> first = Create();
        StripedArrayPool<byte> second = Create();
        TestThreads.RunOnNewThread(() =>
        {
            Open(first);
            Open(second);
            for (int turn = 0; turn < 4; turn++)
            {
                StripedArrayPool<byte> pool = turn % 2 == 0 ? first : second;
                byte[] array = pool.Rent(4096);
                pool.Return(array);

                AssertFoundInline(first);
                AssertFoundInline(second);
            }
        });
    }

    [Fact]
    public void AThirdCreatedPoolPushesOutTheOneUsedLongestAgo()
    {
        StripedArrayPool<byte> first = Create();
        StripedArrayPool<byte> second = Create();
        StripedArrayPool<byte> third = Create();
        TestThreads.RunOnNewThread(() =>
        {
            Open(first);
            Open(second);
            Open(third);

            Assert.Null(first.CurrentCache());
            AssertFoundInline(second);
            AssertFoundInline(third);

            // Its next rent finds its cache out of line and makes it the newest again; the caches never mix.
            byte[] array = first.Rent(4096);
            first.Return(array);
            AssertFoundInline(first);
            AssertFoundInline(third);
            Assert.Null(second.CurrentCache());
            Assert.Same(array, first.Rent(4096));
        });
    }

    private static StripedArrayPool<byte> Create() => StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });

    /// <summary>Two rents open the thread's slots (a cold start keeps them shut for the first); the miss then publishes the cache.</summary>
    private static void Open(StripedArrayPool<byte> pool)
    {
        for (int i = 0; i < ThreadCache<byte[]>.ColdRents; i++)
        {
            pool.Return(pool.Rent(4096));
        }

        AssertFoundInline(pool);
    }

    private static void AssertFoundInline(StripedArrayPool<byte> pool)
    {
        ThreadCache<byte[]>? cache = pool.CurrentCache();
        Assert.NotNull(cache);
        Assert.Same(pool.Engine.Owner, cache.Owner);
    }
}
