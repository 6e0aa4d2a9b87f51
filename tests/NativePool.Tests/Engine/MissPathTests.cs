using System.Buffers;

namespace NativePool.Tests.Engine;

/// <summary>
/// The size-class pools' one miss: the facade hands the engine the thread cache its inlined path read, a miss leaves the
/// thread tier as it entered it, and a pool whose tier is off never enters it. Seen through the cache's operation mark,
/// set to Idle first (as a trim pass does): any entry moves it off Idle, and only an unfinished one leaves it Inside.
/// </summary>
public class MissPathTests
{
    [Fact]
    public void AMemoryPoolRentThatMissesTheSlotEntersTheTierAndLeavesIt()
    {
        // Without trimming: a trim pass (after any gen-2 collection of a busy test run) would reclaim the thread tier.
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { TrimmingEnabled = false });

        // The second rent opens the thread's slots (cold start) and publishes its cache; the third is served by the slot.
        for (int i = 0; i < ThreadCache<PinnedMemoryOwner<byte>>.ColdRents + 1; i++)
        {
            pool.Rent(100).Dispose();
        }

        ThreadCache<PinnedMemoryOwner<byte>> cache = pool.Engine.GetOrCreateCache();
        using IMemoryOwner<byte> parked = pool.Rent(100);
        cache._mark = ThreadCache<PinnedMemoryOwner<byte>>.Idle;

        using IMemoryOwner<byte> missed = pool.Rent(100);

        Assert.Equal(ThreadCache<PinnedMemoryOwner<byte>>.Active, cache._mark);
    }

    [Fact]
    public void AnArrayPoolWithoutAThreadTierNeverEntersItOnRentOrReturn()
    {
        // Without trimming: a trim pass under memory pressure would drop the pooled array, and the next rent would build one.
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { WithoutThreadTier = true, TrimmingEnabled = false });

        ThreadCache<byte[]> cache = pool.Engine.GetOrCreateCache();
        cache._mark = ThreadCache<byte[]>.Idle;
        for (int i = 0; i < 4; i++)
        {
            byte[] array = pool.Rent(100);
            Assert.True(pool.ReturnKept(array));
        }

        Assert.Equal(ThreadCache<byte[]>.Idle, cache._mark);
        Assert.Equal(1, pool.GetStatistics().Allocated);
    }
}
