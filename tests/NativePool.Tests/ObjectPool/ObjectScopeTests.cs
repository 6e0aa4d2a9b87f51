using System.Text;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// <c>using var lease = pool.RentScoped()</c> on a <see cref="StripedObjectPool{T}"/> returns its object through the
/// thread's cache the rent found: each case runs the same steps on a twin pool with <c>Get</c> and <c>Return</c> written
/// by hand, the reference, and expects the same objects and the same statistics.
/// </summary>
public sealed class ObjectScopeTests
{
    [Fact]
    public void AScopeOnAThreadThatHasUsedThePoolReturnsItsObjectResetToTheSlotAsReturnDoes()
    {
        (StripedObjectPool<StringBuilder> pool, StripedObjectPool<StringBuilder> twin) = UsedTwins();

        StringBuilder scoped;
        using (var lease = pool.RentScoped())
        {
            scoped = lease.Value.Append("scoped");
        }

        StringBuilder handWritten = twin.Get();
        try
        {
            handWritten.Append("scoped");
        }
        finally
        {
            twin.Return(handWritten);
        }

        Assert.Equal(0, scoped.Length);
        Assert.Equal(twin.GetStatistics(), pool.GetStatistics());
        Assert.Same(scoped, pool.Get());
        Assert.Same(handWritten, twin.Get());
    }

    [Fact]
    public void ScopesNestedOnOneThreadReturnEveryObjectOnceAsReturnDoes()
    {
        (StripedObjectPool<StringBuilder> pool, StripedObjectPool<StringBuilder> twin) = UsedTwins();

        StringBuilder outer;
        StringBuilder inner;
        using (var first = pool.RentScoped())
        {
            outer = first.Value;
            using var second = pool.RentScoped();
            inner = second.Value;
            Assert.NotSame(outer, inner);
        }

        StringBuilder twinOuter = twin.Get();
        StringBuilder twinInner = twin.Get();
        twin.Return(twinInner);
        twin.Return(twinOuter);

        Assert.Equal(twin.GetStatistics(), pool.GetStatistics());
        Assert.Equal(2, pool.GetStatistics().Pooled);
        Assert.Equal([twin.Get() == twinOuter, twin.Get() == twinInner], [pool.Get() == outer, pool.Get() == inner]);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AScopeDisposedAfterItsPoolWasDisposedDropsTheObjectAsAReturnAfterDisposeDoes(bool disposeItems)
    {
        var pool = new StripedObjectPool<DisposableThing>(new DefaultPooledObjectPolicy<DisposableThing>(), Options(disposeItems));
        var twin = new StripedObjectPool<DisposableThing>(new DefaultPooledObjectPolicy<DisposableThing>(), Options(disposeItems));
        pool.Return(pool.Get());
        twin.Return(twin.Get());

        DisposableThing scoped;
        using (var lease = pool.RentScoped())
        {
            scoped = lease.Value;
            pool.Dispose();
        }

        DisposableThing handWritten = twin.Get();
        twin.Dispose();
        twin.Return(handWritten);

        Assert.Equal(twin.GetStatistics(), pool.GetStatistics());
        #pragma warning disable NP0002 // What the dropping return did to each object is what is checked.
        Assert.Equal(handWritten.DisposeCount, scoped.DisposeCount);
        Assert.Equal(disposeItems ? 1 : 0, scoped.DisposeCount);
        #pragma warning restore NP0002
    }

    [Fact]
    public void AScopeRentedBeforeAListenerAttachedIsSeenReturningByIt()
    {
        string name = "scope-" + Guid.NewGuid().ToString("N");
        var pool = new StripedObjectPool<StringBuilder>(
            new StringBuilderPooledObjectPolicy(),
            new StripedObjectPoolOptions { MaximumRetained = 4, Name = name, TrimmingEnabled = false });
        pool.Return(pool.Get());

        var lease = pool.RentScoped();
        StringBuilder scoped = lease.Value;
        using (var listener = new PoolEventListener(name))
        {
            lease.Dispose();
            Assert.Equal(1, listener.Count("BufferReturned"));
        }

        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, outstanding: 0);
        Assert.Same(scoped, pool.Get());
    }

    /// <summary>Two pools alike, each used once on this thread (so the thread has its cache of each).</summary>
    private static (StripedObjectPool<StringBuilder> Pool, StripedObjectPool<StringBuilder> Twin) UsedTwins()
    {
        var pool = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), Options(disposeItems: false));
        var twin = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), Options(disposeItems: false));
        pool.Return(pool.Get());
        twin.Return(twin.Get());
        return (pool, twin);
    }

    private static StripedObjectPoolOptions Options(bool disposeItems) =>
        new() { MaximumRetained = 4, DisposeItems = disposeItems, TrimmingEnabled = false };
}
