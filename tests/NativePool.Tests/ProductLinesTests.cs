using System.Text;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests;

/// <summary>
/// The three lines that name the product compile as written and do what they say: <c>StripedArrayPool&lt;byte&gt;.Shared.Rent()</c>,
/// <c>using var lease = pool.RentScoped()</c> on the pools where a scope without arguments makes sense, and
/// <c>StripedArrayPool&lt;T&gt;.Shared</c> in place of <c>ArrayPool&lt;T&gt;.Shared</c>.
/// </summary>
public class ProductLinesTests
{
    [Fact]
    public void SharedRentWithoutALengthGivesFourKibibytesAsMemoryPoolSharedDoes()
    {
        byte[] buffer = StripedArrayPool<byte>.Shared.Rent();
        using (IMemoryOwner<byte> reference = MemoryPool<byte>.Shared.Rent())
        {
            Assert.True(buffer.Length >= reference.Memory.Length, $"{buffer.Length} bytes against MemoryPool's {reference.Memory.Length}.");
        }

        Assert.Equal(4096, StripedArrayPool<byte>.DefaultLength);
        Assert.Equal(1024, StripedArrayPool<int>.DefaultLength);
        StripedArrayPool<byte>.Shared.Return(buffer);
    }

    [Fact]
    public void UsingVarLeaseEqualsPoolRentScopedReturnsTheObjectOnceAtTheEndOfTheScope()
    {
        var pool = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), 4);
        StringBuilder used;
        {
            using var lease = pool.RentScoped();
            used = lease.Value.Append("pooled");
            Assert.Equal(0, pool.GetStatistics().Pooled);
        }

        Assert.Equal(1, pool.GetStatistics().Pooled);
        Assert.Same(used, pool.Get());
        Assert.Equal(0, used.Length);
    }

    [Fact]
    public void DisposingAnObjectScopeTwiceReturnsTheObjectOnce()
    {
        var pool = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), 4);
        ObjectScope<StringBuilder> scope = pool.RentScoped();
        scope.Dispose();
        scope.Dispose();

        Assert.False(scope.IsActive);
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(1, statistics.Pooled);
        Assert.Equal(0, statistics.Outstanding);
        Assert.NotSame(pool.Get(), pool.Get());
    }

    [Fact]
    public void InAGuardedPoolACopyOfAnObjectScopeReturnsTheObjectOnce()
    {
        // Copies are compile-time errors (NP0012); a guarded pool's scopes check them at run time too, which is tested here.
        var pool = new StripedObjectPool<StringBuilder>(
            new StringBuilderPooledObjectPolicy(),
            new StripedObjectPoolOptions { MaximumRetained = 4, Guarded = true });
        ObjectScope<StringBuilder> scope = pool.RentScoped();
#pragma warning disable NP0012
        ObjectScope<StringBuilder> copy = scope;
#pragma warning restore NP0012
        scope.Dispose();
        copy.Dispose();
        scope.Dispose();
        Assert.False(copy.IsActive);
        bool threw = false;
        try
        {
            _ = copy.Value;
        }
        catch (ObjectDisposedException)
        {
            threw = true;
        }

        Assert.True(threw, "Value of a disposed scope's copy did not throw.");
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(1, statistics.Pooled);
        Assert.Equal(0, statistics.Outstanding);
    }

    [Fact]
    public void InADefaultPoolACopyOfAnObjectScopeDisposedRightAfterTheOriginalIsRefusedAndTheObjectGoesToOneRenter()
    {
        // A default pool's scope carries no run-time check for copies (NP0012 rules them out), but the copy's return is of
        // the object the thread's slot already holds: the pool refuses it instead of keeping the object twice.
        var pool = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), 4);
        ObjectScope<StringBuilder> scope = pool.RentScoped();
#pragma warning disable NP0012
        ObjectScope<StringBuilder> copy = scope;
#pragma warning restore NP0012
        StringBuilder builder = scope.Value;
        scope.Dispose();
        bool refused = false;
        try
        {
            copy.Dispose();
        }
        catch (InvalidOperationException)
        {
            refused = true;
        }

        Assert.True(refused, "The copy's dispose returned the object a second time.");
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(1, statistics.Pooled);
        Assert.Equal(0, statistics.Outstanding);
        StringBuilder first = pool.Get();
        StringBuilder second = pool.Get();
        Assert.Same(builder, first);
        Assert.NotSame(first, second);
        pool.Return(first);
        pool.Return(second);
    }

    [Fact]
    public void UsingVarLeaseEqualsPoolRentScopedOnAnArrayPoolRentsTheDefaultLength()
    {
        var pool = StripedArrayPool<byte>.Create();
        {
            using var lease = pool.RentScoped();
            Assert.Equal(StripedArrayPool<byte>.DefaultLength, lease.Length);
            lease.Span.Fill(1);
        }

        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void StripedArrayPoolSharedReplacesArrayPoolSharedWhereAnArrayPoolIsExpected()
    {
        ArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
        byte[] array = pool.Rent(1000);
        Assert.True(array.Length >= 1000);
        pool.Return(array);
        Assert.Same(array, pool.Rent(1000));
        pool.Return(array);
    }
}
