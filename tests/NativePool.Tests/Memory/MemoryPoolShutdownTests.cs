using System.Runtime.CompilerServices;

namespace NativePool.Tests.Memory;

/// <summary>
/// <see cref="StripedMemoryPool{T}"/> against its own <c>Dispose</c>: it re-reads the engine's shutdown mark after every
/// engine rent and return, as every facade does (see <see cref="StripedPool{T}.Shutdown"/>), so a rent racing
/// <c>Dispose</c> throws and a return racing it leaves nothing pooled, and every buffer is let go once: the statistics
/// come out exact.
/// </summary>
/// <remarks>
/// A rent or return reads the pool's inlined limits before its engine operation; a <c>Dispose</c> on another thread can
/// land between that read and the engine operation. The race tests put the pool in exactly that state: the engine shut
/// down, as <c>Dispose</c> does, while the facade's limits still read open, as they did for the racing thread.
/// </remarks>
public sealed class MemoryPoolShutdownTests
{
    [Fact]
    public void ARentThatRacedDisposeThrowsAndItsBufferIsCountedOnce()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        pool.Rent(100).Dispose();
        ShutDownUnderARacingCall(pool);

        Assert.Throws<ObjectDisposedException>(() => pool.Rent(100));
        Assert.Throws<ObjectDisposedException>(() => pool.RentLease(100));
        Assert.Throws<ObjectDisposedException>(() => pool.Rent());

        // The parked buffer went to the shutdown's drain; each raced rent's buffer went to nobody. The default-length
        // rent takes the uncommon path, which reads the shutdown mark before it rents, so it allocates nothing.
        AssertEveryBufferLetGoOnce(pool.GetStatistics(), allocated: 3);
    }

    [Fact]
    public void AReturnThatRacedDisposeLeavesNothingPooledAndItsBufferIsCountedOnce()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        MemoryLease<byte> lease = pool.RentLease(1000);
        ShutDownUnderARacingCall(pool);

        owner.Dispose();
        lease.Dispose();
        owner.Dispose();
        lease.Dispose();

        AssertEveryBufferLetGoOnce(pool.GetStatistics(), allocated: 2);
    }

    [Fact]
    public void RentingAfterDisposeThrowsAndOwnersRentedBeforeAreLetGoOnceWhenReturned()
    {
        StripedMemoryPool<byte> pool = CreatePool();
        pool.Rent(100).Dispose();
        IMemoryOwner<byte> owner = pool.Rent(200);
        MemoryLease<byte> lease = pool.RentLease(300);
        pool.Dispose();

        Assert.Throws<ObjectDisposedException>(() => pool.Rent(100));
        Assert.Throws<ObjectDisposedException>(() => pool.Rent(0));
        Assert.Throws<ObjectDisposedException>(() => pool.Rent());
        Assert.Throws<ObjectDisposedException>(() => pool.RentLease(100));
        owner.Dispose();
        lease.Dispose();
        owner.Dispose();
        lease.Dispose();

        PoolStatistics statistics = pool.GetStatistics();
        AssertEveryBufferLetGoOnce(statistics, allocated: 3);
        Assert.Equal(1, statistics.Trimmed);
        Assert.Equal(2, statistics.Dropped);
    }

    [Fact]
    public void ADisposedPoolThatIsStillReferencedKeepsNoBufferItLetGo()
    {
        StripedMemoryPool<byte> pool = CreatePool();
        WeakReference parked = ParkOneBufferAndDispose(pool);

        // Collected once nothing holds it; a pool that still did would keep it alive past the deadline, and fail.
        Finalization.WaitUntil(() => !parked.IsAlive, static () => "The disposed pool still holds a buffer its shutdown let go.");
        GC.KeepAlive(pool);
    }

    /// <summary>Parks one buffer in this thread's slot and disposes the pool; out of line so no local keeps the buffer.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference ParkOneBufferAndDispose(StripedMemoryPool<byte> pool)
    {
        PinnedMemoryOwner<byte> owner = pool.Engine.Rent(0);
        pool.Engine.Return(0, owner);
        var parked = new WeakReference(owner);
        pool.Dispose();
        return parked;
    }

    private static StripedMemoryPool<byte> CreatePool() => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions
    {
        StripeCount = 1,
        TrimmingEnabled = false,
    });

    /// <summary>What a call that read the pool open just before <c>Dispose</c> sees: the engine shut down, the facade still open.</summary>
    private static void ShutDownUnderARacingCall(StripedMemoryPool<byte> pool) => Assert.True(pool.Engine.Shutdown());

    private static void AssertEveryBufferLetGoOnce(PoolStatistics statistics, long allocated)
    {
        Assert.Equal(allocated, statistics.Allocated);
        Assert.Equal(0, statistics.Pooled);
        Assert.Equal(0, statistics.Outstanding);
        Assert.Equal(allocated, statistics.Trimmed + statistics.Dropped);
    }
}
