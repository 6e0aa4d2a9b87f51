namespace NativePool.Tests.Leases;

/// <summary>
/// Generations are 64-bit: a stale copy of a lease made just before the point where a 32-bit generation wrapped
/// (2^32 leases of one token, 2^31 of one block) cannot end the lease the same token or block serves one 32-bit lap
/// later. Each test moves the counter a lap forward instead of making 2^32 leases.
/// </summary>
public sealed class GenerationWrapTests
{
    /// <summary>The last lap of a 32-bit counter; even, as a pooled block's generation is.</summary>
    private const long BeforeWrap = (1L << 32) - 2;

    /// <summary>One full 32-bit lap: a generation this far on has the same low 32 bits.</summary>
    private const long Lap = 1L << 32;

    public static TheoryData<string> LeaseTypes { get; } = new()
    {
        nameof(ArrayLease<int>),
        nameof(ObjectLease<object>),
        nameof(MemoryLease<int>),
        nameof(IMemoryOwner<int>),
        nameof(NativeBlockLease),
        nameof(NativeStructLease<int>),
    };

    [Theory]
    [MemberData(nameof(LeaseTypes))]
    public void AStaleCopyFromBeforeTheOld32BitWrapCannotEndALeaseMadeALapLater(string leaseType)
    {
        Outcome outcome = default!;

        // A thread of its own: its free list of lease tokens starts empty, so the token moved here is the one leased.
        TestThreads.RunOnNewThread(() => outcome = Run(leaseType));

        Assert.True(outcome.SameTokenOrBlock, "The two leases must share a token or block for the test to mean anything.");
        Assert.True(outcome.CurrentActiveAfterStaleDispose, "The stale copy's dispose ended the current lease.");
        Assert.True(outcome.NextRentDiffers, "The stale copy's dispose returned the current renter's item to the pool.");
    }

    private static Outcome Run(string leaseType) => leaseType switch
    {
        nameof(ArrayLease<int>) => RunArrayLease(),
        nameof(ObjectLease<object>) => RunObjectLease(),
        nameof(MemoryLease<int>) => RunMemoryLease(),
        nameof(IMemoryOwner<int>) => RunMemoryOwner(),
        nameof(NativeBlockLease) => RunNativeBlockLease(),
        nameof(NativeStructLease<int>) => RunNativeStructLease(),
        _ => throw new ArgumentOutOfRangeException(nameof(leaseType), leaseType, "Not a lease type."),
    };

    private static Outcome RunArrayLease()
    {
        StripedArrayPool<int> pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        LeaseToken first = PrepareSpareToken(BeforeWrap);
        ArrayLease<int> lease = pool.RentLease(16);
        int[] array = lease.Array;
        ArrayLease<int> stale = lease;
        lease.Dispose();

        LeaseToken second = PrepareSpareToken(BeforeWrap + Lap);
        ArrayLease<int> current = pool.RentLease(16);
        bool sameItem = ReferenceEquals(array, current.Array);
        stale.Dispose();

        return new Outcome(
            ReferenceEquals(first, second) && sameItem,
            current.IsActive,
            !ReferenceEquals(array, pool.Rent(16)));
    }

    private static Outcome RunObjectLease()
    {
        var pool = new StripedObjectPool<object>(() => new object(), cleanup: null, new StripedObjectPoolOptions { TrimmingEnabled = false });
        LeaseToken first = PrepareSpareToken(BeforeWrap);
        ObjectLease<object> lease = pool.RentLease();
        object item = lease.Value;
        ObjectLease<object> stale = lease;
        lease.Dispose();

        LeaseToken second = PrepareSpareToken(BeforeWrap + Lap);
        #pragma warning disable NP0004 // Kept active: the outcome reports whether it still is.
        ObjectLease<object> current = pool.RentLease();
        #pragma warning restore NP0004
        bool sameItem = ReferenceEquals(item, current.Value);
        stale.Dispose();

        return new Outcome(ReferenceEquals(first, second) && sameItem, current.IsActive, !ReferenceEquals(item, pool.Get()));
    }

    private static Outcome RunMemoryLease()
    {
        using StripedMemoryPool<int> pool = StripedMemoryPool<int>.Create(new StripedMemoryPoolOptions { TrimmingEnabled = false });
        PinnedMemoryOwner<int> first = ParkWithGeneration(pool, BeforeWrap);
        MemoryLease<int> lease = pool.RentLease(16);
        MemoryLease<int> stale = lease;
        lease.Dispose();

        PinnedMemoryOwner<int> second = ParkWithGeneration(pool, BeforeWrap + Lap);
        #pragma warning disable NP0004 // Kept active: the outcome reports whether it still is.
        MemoryLease<int> current = pool.RentLease(16);
        #pragma warning restore NP0004
        stale.Dispose();

        return new Outcome(ReferenceEquals(first, second), current.IsActive, !ReferenceEquals(second, pool.Engine.Rent(0)));
    }

    private static Outcome RunMemoryOwner()
    {
        using StripedMemoryPool<int> pool = StripedMemoryPool<int>.Create(new StripedMemoryPoolOptions { TrimmingEnabled = false });
        PinnedMemoryOwner<int> first = ParkWithGeneration(pool, BeforeWrap);
        IMemoryOwner<int> stale = pool.Rent(16);
        stale.Dispose();

        PinnedMemoryOwner<int> second = ParkWithGeneration(pool, BeforeWrap + Lap);
        IMemoryOwner<int> current = pool.Rent(16);
        stale.Dispose();
        bool active = Record.Exception(() => current.Memory) is null;

        return new Outcome(ReferenceEquals(first, second), active, !ReferenceEquals(second, pool.Engine.Rent(0)));
    }

    private static Outcome RunNativeBlockLease()
    {
        using NativeBlockPool pool = NativeBlockPool.Create(new NativeBlockPoolOptions { TrimmingEnabled = false });
        NativeBlock<byte> first = ParkWithGeneration(pool.Core, BeforeWrap);
        NativeBlockLease lease = pool.Rent(64);
        NativeBlockLease stale = lease;
        lease.Dispose();

        NativeBlock<byte> second = ParkWithGeneration(pool.Core, BeforeWrap + Lap);
        #pragma warning disable NP0004 // Kept active: the outcome reports whether it still is.
        NativeBlockLease current = pool.Rent(64);
        #pragma warning restore NP0004
        stale.Dispose();

        return new Outcome(ReferenceEquals(first, second), current.IsActive, !ReferenceEquals(second, pool.Core.Engine.Rent(0)));
    }

    private static Outcome RunNativeStructLease()
    {
        using NativeStructPool<long> pool = NativeStructPool<long>.Create(new NativeBlockPoolOptions { TrimmingEnabled = false });
        NativeBlock<long> first = ParkWithGeneration(pool.Core, BeforeWrap);
        NativeStructLease<long> lease = pool.Rent(1);
        NativeStructLease<long> stale = lease;
        lease.Dispose();

        NativeBlock<long> second = ParkWithGeneration(pool.Core, BeforeWrap + Lap);
        #pragma warning disable NP0004 // Kept active: the outcome reports whether it still is.
        NativeStructLease<long> current = pool.Rent(1);
        #pragma warning restore NP0004
        stale.Dispose();

        return new Outcome(ReferenceEquals(first, second), current.IsActive, !ReferenceEquals(second, pool.Core.Engine.Rent(0)));
    }

    /// <summary>Puts a token at <paramref name="generation"/> at the head of this thread's free list: the next lease takes it.</summary>
    private static LeaseToken PrepareSpareToken(long generation)
    {
        LeaseToken token = LeaseToken.Take();
        token.SetGenerationForTest(generation - 1);

        // Ending the generation before moves it to the one wanted and puts the token back on the free list.
        Assert.True(token.TryEnd(token.Generation));
        return token;
    }

    /// <summary>Takes the block the next lease of class 0 will get, moves its generation and parks it again.</summary>
    private static PinnedMemoryOwner<int> ParkWithGeneration(StripedMemoryPool<int> pool, long generation)
    {
        PinnedMemoryOwner<int> owner = pool.Engine.Rent(0);
        owner.SetGenerationForTest(generation);
        pool.Engine.Return(0, owner);
        return owner;
    }

    /// <summary>As above, for a native pool (class 0 holds the blocks of 64 bytes and of one <see langword="long"/>).</summary>
    private static NativeBlock<T> ParkWithGeneration<T>(NativeBlockCore<T> core, long generation)
        where T : unmanaged
    {
        NativeBlock<T> block = core.Engine.Rent(0);
        block.SetGenerationForTest(generation);
        core.Engine.Return(0, block);
        return block;
    }

    /// <summary>What the stale copy's dispose left behind.</summary>
    private sealed record Outcome(bool SameTokenOrBlock, bool CurrentActiveAfterStaleDispose, bool NextRentDiffers);
}
