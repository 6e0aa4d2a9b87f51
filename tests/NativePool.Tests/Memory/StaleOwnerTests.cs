namespace NativePool.Tests.Memory;

/// <summary>
/// An <see cref="IMemoryOwner{T}"/> kept after its <c>Dispose</c> must stay harmless however the pool recycles its
/// buffers. <see cref="MemoryPool{T}.Shared"/> is the control: a stale dispose there never touches a newer renter.
/// </summary>
public sealed class StaleOwnerTests
{
    public static TheoryData<string> Pools => new() { "bcl", "striped-shared", "striped-instance" };

    [Theory]
    [MemberData(nameof(Pools))]
    public void LateSecondDisposeDoesNotEndTheNextRentersLease(string name)
    {
        using MemoryPool<byte> pool = Create(name);
        (IMemoryOwner<byte> first, IMemoryOwner<byte> next) = RentDisposeAndRentAgain(pool);
        using IMemoryOwner<byte> second = next;

        first.Dispose();

        Memory<byte> memory = second.Memory;
        Assert.Equal(ExpectedLength(name), memory.Length);
        memory.Span.Fill(0xA5);

        // Had the stale dispose returned the buffer, the next rent on this thread would get the same bytes.
        using IMemoryOwner<byte> third = pool.Rent(100);
        third.Memory.Span.Fill(0x5A);
        Assert.False(second.Memory.Span.Overlaps(third.Memory.Span));
        Assert.All(second.Memory.ToArray(), b => Assert.Equal(0xA5, b));
    }

    [Theory]
    [MemberData(nameof(Pools))]
    public void StaleOwnerThrowsObjectDisposedEvenAfterItsBufferIsRentedAgain(string name)
    {
        using MemoryPool<byte> pool = Create(name);
        (IMemoryOwner<byte> first, IMemoryOwner<byte> next) = RentDisposeAndRentAgain(pool);
        using IMemoryOwner<byte> second = next;

        Assert.Throws<ObjectDisposedException>(() => first.Memory);
        Assert.Equal(ExpectedLength(name), second.Memory.Length);
    }

    [Fact]
    public void EveryRentHandsOutADistinctOwner()
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 1, TrimmingEnabled = false });
        IMemoryOwner<byte> first = pool.Rent(100);
        first.Dispose();
        using IMemoryOwner<byte> second = pool.Rent(100);
        Assert.NotSame(first, second);
    }

    [Fact]
    public void StaleDisposeAfterManyRecyclesStillDoesNothing()
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 1, TrimmingEnabled = false });
        IMemoryOwner<byte> stale = pool.Rent(64);
        stale.Dispose();
        for (int i = 0; i < 1_000; i++)
        {
            pool.Rent(64).Dispose();
        }

        using IMemoryOwner<byte> current = pool.Rent(64);
        PoolStatistics before = pool.GetStatistics();
        stale.Dispose();
        StatisticsAssert.Counts(pool.GetStatistics(), pooled: before.Pooled, outstanding: before.Outstanding);
        Assert.Equal(64, current.Memory.Length);
    }

    /// <summary>The length of a 100-element rent: the reference hands out its whole array, ours exactly what was asked.</summary>
    private static int ExpectedLength(string name) => name == "bcl" ? 128 : 100;

    private static MemoryPool<byte> Create(string name) => name switch
    {
        "bcl" => MemoryPool<byte>.Shared,
        "striped-shared" => StripedMemoryPool<byte>.Shared,
        _ => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 1, TrimmingEnabled = false }),
    };

    /// <summary>Rents an owner and disposes it, then rents again: the stale owner and the next renter's.</summary>
    private static (IMemoryOwner<byte> Stale, IMemoryOwner<byte> Next) RentDisposeAndRentAgain(MemoryPool<byte> pool)
    {
        IMemoryOwner<byte> stale = pool.Rent(100);
        stale.Dispose();
        return (stale, pool.Rent(100));
    }
}
