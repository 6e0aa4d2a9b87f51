using System.Buffers;

namespace NativePool.Tests.Engine;

/// <summary>
/// The size-class pools' one miss: the facade hands the engine the thread cache its inlined path read, so a miss enters
/// the thread tier no more often than it needs, and a pool whose tier is off never enters it. Counted through the
/// cache's operation mark, which moves by two for every entry.
/// </summary>
public class MissPathTests
{
    [Fact]
    public void AMemoryPoolRentThatMissesTheSlotEntersTheTierForTheTakeAndTheMagazineOnly()
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
        long before = cache._operation;

        using IMemoryOwner<byte> missed = pool.Rent(100);

        int sizeClass = SizeClasses.GetIndex(100);
        long expectedEntries = 1 + (pool.Engine.MagazineCapacity(sizeClass) != 0 ? 1 : 0);
        Assert.Equal(expectedEntries, (cache._operation - before) / 2);
    }

    [Fact]
    public void AnArrayPoolWithoutAThreadTierNeverEntersItOnRentOrReturn()
    {
        // Without trimming: a trim pass under memory pressure would drop the pooled array, and the next rent would build one.
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { WithoutThreadTier = true, TrimmingEnabled = false });

        for (int i = 0; i < 4; i++)
        {
            byte[] array = pool.Rent(100);
            Assert.True(pool.ReturnKept(array));
        }

        Assert.Equal(0, pool.Engine.GetOrCreateCache()._operation);
        Assert.Equal(1, pool.GetStatistics().Allocated);
    }
}
