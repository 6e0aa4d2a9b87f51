namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A thread finds its cache of an object pool through the thread's memo, without the engine's table, for the last two
/// object pools it used, so a get and return one object at a time stay on the inlined paths; a third pool pushes the
/// oldest out; a disposed pool's entry is never used; an array pool of the same item type keeps its own cache. Read from the pools' own look-up on a thread of the test's own; no timing.
/// </summary>
public sealed class ObjectPoolLookupTests
{
    [Fact]
    public void AThreadTakingTurnsWithTwoObjectPoolsFindsBothCachesInline()
    {
        StripedObjectPool<byte[]> first = Create();
        StripedObjectPool<byte[]> second = Create();
        TestThreads.RunOnNewThread(() =>
        {
            Open(first);
            Open(second);
            for (int turn = 0; turn < 4; turn++)
            {
                StripedObjectPool<byte[]> pool = turn % 2 == 0 ? first : second;
                byte[] item = pool.Get();
                pool.Return(item);

                // One object at a time comes back from the thread's own slot.
                Assert.Same(item, pool.Get());
                pool.Return(item);
                AssertFoundInline(first);
                AssertFoundInline(second);
            }
        });
    }

    [Fact]
    public void AThirdObjectPoolPushesOutTheOneUsedLongestAgo()
    {
        StripedObjectPool<byte[]> first = Create();
        StripedObjectPool<byte[]> second = Create();
        StripedObjectPool<byte[]> third = Create();
        TestThreads.RunOnNewThread(() =>
        {
            Open(first);
            Open(second);
            Open(third);

            Assert.Null(first.CurrentCache());
            AssertFoundInline(second);
            AssertFoundInline(third);

            // Its next get finds its cache out of line, in the engine's table, and makes it the newest again.
            byte[] item = first.Get();
            first.Return(item);
            AssertFoundInline(first);
            AssertFoundInline(third);
            Assert.Null(second.CurrentCache());
            Assert.Same(item, first.Get());
        });
    }

    [Fact]
    public void ADisposedPoolWhoseCacheIsInTheMemoStillRefusesGetsAndKeepsNoReturn()
    {
        StripedObjectPool<byte[]> pool = Create();
        TestThreads.RunOnNewThread(() =>
        {
            Open(pool);
            byte[] item = pool.Get();
            pool.Dispose();

            AssertFoundInline(pool);
            Assert.Throws<ObjectDisposedException>(() => pool.Get());
            pool.Return(item);
            Assert.Equal(0, pool.GetStatistics().Pooled);
        });
    }

    [Fact]
    public void AnObjectPoolAndAnArrayPoolOfTheSameItemTypeEachFindTheirOwnCache()
    {
        StripedObjectPool<byte[]> objects = Create();
        StripedArrayPool<byte> arrays = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        TestThreads.RunOnNewThread(() =>
        {
            Open(objects);
            for (int i = 0; i < ThreadCache<byte[]>.ColdRents; i++)
            {
                arrays.Return(arrays.Rent(4096));
            }

            AssertFoundInline(objects);
            Assert.Same(arrays.Engine.Owner, arrays.CurrentCache()!.Owner);

            byte[] fromObjects = objects.Get();
            byte[] fromArrays = arrays.Rent(4096);
            Assert.Equal(256, fromObjects.Length);
            Assert.Equal(4096, fromArrays.Length);
            objects.Return(fromObjects);
            arrays.Return(fromArrays);
            Assert.Same(fromObjects, objects.Get());
            Assert.Same(fromArrays, arrays.Rent(4096));
        });
    }

    private static StripedObjectPool<byte[]> Create() =>
        new(static () => new byte[256], null, new StripedObjectPoolOptions { MaximumRetained = 64, TrimmingEnabled = false });

    /// <summary>Gets and returns until a cold start has opened the thread's slot; the miss then publishes the cache.</summary>
    private static void Open(StripedObjectPool<byte[]> pool)
    {
        for (int i = 0; i < ThreadCache<byte[]>.ColdRents; i++)
        {
            pool.Return(pool.Get());
        }

        AssertFoundInline(pool);
    }

    private static void AssertFoundInline(StripedObjectPool<byte[]> pool)
    {
        ThreadCache<byte[]>? cache = pool.CurrentCache();
        Assert.NotNull(cache);
        Assert.Same(pool.Engine.Owner, cache.Owner);
    }
}
