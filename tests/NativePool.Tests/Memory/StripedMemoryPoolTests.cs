using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using NativePool.Tests.Native;

namespace NativePool.Tests.Memory;

/// <summary>What <see cref="StripedMemoryPool{T}"/> promises beyond the <see cref="MemoryPool{T}"/> contract.</summary>
public sealed class StripedMemoryPoolTests
{
    /// <summary>Where the owner-size measurement stores each owner, so that none can be optimised away.</summary>
    private static IMemoryOwner<byte>? s_ownerSink;

    private static StripedMemoryPool<byte> CreatePool(int stripes = 1) => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions
    {
        StripeCount = stripes,
        TrimmingEnabled = false,
        MaximumBufferLength = 1 << 20,
    });

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(17)]
    [InlineData(100)]
    [InlineData(4095)]
    [InlineData(65_536)]
    [InlineData(1 << 20)]
    public void MemoryIsExactlyTheRequestedLength(int length)
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(length);
        Assert.Equal(length, owner.Memory.Length);
        Assert.Equal(length, owner.Memory.Span.Length);
        using MemoryLease<byte> lease = pool.RentLease(length);
        Assert.Equal(length, lease.Memory.Length);
        Assert.Equal(length, lease.Span.Length);
    }

    [Fact]
    public void RentWithoutALengthGivesFourKilobytesWorthOfElements()
    {
        Assert.Equal(4096, StripedMemoryPool<byte>.Shared.DefaultBufferLength);
        Assert.Equal(1024, StripedMemoryPool<int>.Shared.DefaultBufferLength);
        Assert.Equal(4096 / 16, StripedMemoryPool<Guid>.Shared.DefaultBufferLength);
        using IMemoryOwner<int> owner = StripedMemoryPool<int>.Shared.Rent();
        Assert.Equal(1024, owner.Memory.Length);
        using IMemoryOwner<byte> bytes = StripedMemoryPool<byte>.Shared.Rent(-1);
        Assert.Equal(4096, bytes.Memory.Length);
    }

    [Fact]
    public void DefaultBufferLengthIsConfigurable()
    {
        using var pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { DefaultBufferLength = 100 });
        using IMemoryOwner<byte> owner = pool.Rent();
        Assert.Equal(100, owner.Memory.Length);
    }

    [Theory]
    [InlineData(16, 16)]
    [InlineData(1000, 1024)]
    [InlineData(1 << 30, 1 << 30)]
    public void MaxBufferSizeIsTheLargestClass(int maximum, int expected)
    {
        using var pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { MaximumBufferLength = maximum, TrimmingEnabled = false });
        Assert.Equal(expected, pool.MaxBufferSize);
        using IMemoryOwner<byte> largest = pool.Rent(Math.Min(expected, 1 << 20));
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(expected + 1));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(4096)]
    [InlineData(65_536)]
    public void RentAndDisposeAllocateNothingInSteadyStateWhenThePoolReusesOwners(int length)
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions
        {
            StripeCount = 1,
            TrimmingEnabled = false,
            MaximumBufferLength = 1 << 20,
            ReuseOwners = true,
        });
        Assert.Equal(0, SteadyStateAllocation.Measure(count =>
        {
            for (int i = 0; i < count; i++)
            {
                IMemoryOwner<byte> owner = pool.Rent(length);
                owner.Memory.Span[0] = 1;
                using (MemoryHandle handle = owner.Memory.Pin())
                {
                }

                owner.Dispose();
                using MemoryLease<byte> lease = pool.RentLease(length);
                lease.Span[0] = 2;
            }
        }));
    }

    [Fact]
    public void TheMeasurementSeesTheOwnerTheReferencePoolAllocatesPerRent()
    {
        static void RentAndDispose(int count)
        {
            for (int i = 0; i < count; i++)
            {
                MemoryPool<byte>.Shared.Rent(4096).Dispose();
            }
        }

        // The reference pool allocates one owner object per rent: the same bytes each time, seen by every measurement.
        long one = SteadyStateAllocation.Measure(RentAndDispose, iterations: 1);
        long allocated = SteadyStateAllocation.Measure(RentAndDispose);
        Assert.True(one > 0, "the measurement saw no allocation for one rent");
        Assert.Equal(10_000 * one, allocated);
    }

    [Fact]
    public void SharedRentAllocatesOnlyAPerRentOwnerAsSmallAsTheReferencePoolsOne()
    {
        long allocated = SteadyStateAllocation.Measure(static count =>
        {
            for (int i = 0; i < count; i++)
            {
                StripedMemoryPool<byte>.Shared.Rent(4096).Dispose();
            }
        });

        // Exactly one owner per rent, nothing else: what making 10 000 owners allocates, and no more than the
        // reference pool's own per-rent owner.
        long owners = SteadyStateAllocation.Measure(static count =>
        {
            for (int i = 0; i < count; i++)
            {
                s_ownerSink = new RentedMemoryOwner<byte>(null!);
            }
        });
        long reference = SteadyStateAllocation.Measure(static count =>
        {
            for (int i = 0; i < count; i++)
            {
                MemoryPool<byte>.Shared.Rent(4096).Dispose();
            }
        });
        Assert.Equal(owners, allocated);
        Assert.True(allocated <= reference, $"{allocated} B for 10 000 rents against the reference pool's {reference} B");
    }

    [Fact]
    public void DisposingThePooledManagerBehindARentsMemoryDoesNotEndTheRent()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        Assert.True(MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(owner.Memory, out MemoryManager<byte>? manager));

        // Only the handle ends its rent: a dispose that reached the pooled manager some other way is ignored, so the
        // buffer cannot go back to the pool (and to another renter) while the handle still uses it.
        ((IDisposable)manager!).Dispose();
        owner.Memory.Span.Fill(7);
        using IMemoryOwner<byte> other = pool.Rent(100);
        Assert.False(MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(other.Memory, out MemoryManager<byte>? otherManager) && ReferenceEquals(otherManager, manager));
        Assert.Equal(2, pool.GetStatistics().Outstanding);

        owner.Dispose();
        owner.Dispose();
        Assert.Equal(1, pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void ScopedRentAllocatesNothingInSteadyState()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        Assert.Equal(0, SteadyStateAllocation.Measure(count =>
        {
            for (int i = 0; i < count; i++)
            {
                using MemoryLease<byte> lease = pool.RentLease(4096);
                lease.Span[0] = 1;
                using MemoryHandle handle = lease.Memory.Pin();
            }
        }));
    }

    [Fact]
    public unsafe void PinnedAddressIsTheFirstElementAndSurvivesACompactingCollection()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(1000);
        Memory<byte> memory = owner.Memory;
        using MemoryHandle handle = memory.Pin();
        nint pinned = (nint)handle.Pointer;
        Assert.Equal(pinned, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(memory.Span)));

        // Garbage around the buffer, then a blocking compacting gen-2 collection: a movable buffer would move.
        for (int i = 0; i < 1000; i++)
        {
            _ = new byte[1000];
        }

        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        Assert.Equal(pinned, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(memory.Span)));
        using MemoryHandle again = memory[10..].Pin();
        Assert.Equal(pinned + 10, (nint)again.Pointer);
    }

    [Fact]
    public unsafe void PinMakesNoGCHandleAndAllocatesNothing()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(100);
        Memory<byte> memory = owner.Memory;
        Assert.Equal(0, SteadyStateAllocation.Measure(count =>
        {
            for (int i = 0; i < count; i++)
            {
                using MemoryHandle handle = memory.Pin();
                Assert.True(handle.Pointer != null);
            }
        }));
    }

    [Fact]
    public void SpanOfASavedMemoryThrowsAfterDispose()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        Memory<byte> memory = owner.Memory;
        owner.Dispose();
        Assert.Throws<ObjectDisposedException>(() => memory.Span.Length);
        Assert.Throws<ObjectDisposedException>(() => memory.Pin());
        #pragma warning disable NP0002 // The misuse under test.
        Assert.False(MemoryMarshal.TryGetArray((ReadOnlyMemory<byte>)memory, out _));
        #pragma warning restore NP0002
    }

    [Theory]
    [InlineData(100, 128)]
    [InlineData(4000, 4096 + 63)]
    public void TryGetArrayGivesThePinnedArrayCutToTheBufferWhichStartsOnACacheLineFrom1KiB(int length, int arrayLength)
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(length);
        Assert.True(MemoryMarshal.TryGetArray((ReadOnlyMemory<byte>)owner.Memory, out ArraySegment<byte> segment));
        Assert.Equal(length, segment.Count);
        Assert.Equal(arrayLength, segment.Array!.Length);
        Assert.True(Unsafe.AreSame(ref segment.Array[segment.Offset], ref MemoryMarshal.GetReference(owner.Memory.Span)));

        // Under 1 KiB the buffer is the array's start; from 1 KiB, the array's first element on a cache line.
        nint start = PinnedArrayPlacement.DataAddress(segment.Array) + segment.Offset;
        Assert.True(length < PinnedArrayPlacement.MinimumPlacedBytes ? segment.Offset == 0 : start % 64 == 0, $"The buffer starts at offset {segment.Offset}, address {start:x}.");
    }

    [Fact]
    public void DisposingAgainAfterTheOwnerWentBackToThePoolIsIgnored()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        owner.Dispose();
        owner.Dispose();
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 1, outstanding: 0);
    }

    [Fact]
    public void AStaleOwnerReferenceActsOnTheNewLeaseOnlyWhenThePoolReusesOwners()
    {
        // Documented for ReuseOwners: the owner object is pooled, so a reference kept after Dispose is the next renter's.
        using var pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 1, TrimmingEnabled = false, ReuseOwners = true });
        IMemoryOwner<byte> stale = pool.Rent(100);
        stale.Dispose();
        IMemoryOwner<byte> fresh = pool.Rent(120);
        Assert.Same(stale, fresh);
        #pragma warning disable NP0002 // The documented hazard of a reference kept after Dispose is what the test shows.
        Assert.Equal(120, stale.Memory.Length);
        #pragma warning restore NP0002
        fresh.Dispose();
    }

    [Fact]
    public void AStaleOwnerReferenceThrowsAndDoesNothingByDefault()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> stale = pool.Rent(100);
        stale.Dispose();
        using IMemoryOwner<byte> fresh = pool.Rent(120);
        Assert.NotSame(stale, fresh);
        Assert.Throws<ObjectDisposedException>(() => stale.Memory);
        stale.Dispose();
        Assert.Equal(120, fresh.Memory.Length);
        Assert.Equal(1, pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void AStaleLeaseNeverEndsANewerLease()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        MemoryLease<byte> stale = pool.RentLease(100);
        MemoryLease<byte> copy = stale;
        stale.Dispose();
        using MemoryLease<byte> fresh = pool.RentLease(100);
        Assert.False(stale.IsActive);
        Assert.True(fresh.IsActive);

        stale.Dispose();
        copy.Dispose();
        Assert.True(fresh.IsActive);
        Assert.Equal(100, fresh.Memory.Length);
        Assert.Throws<ObjectDisposedException>(() => stale.Memory);
        Assert.Throws<ObjectDisposedException>(() => copy.Span.Length);
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: 1, pooled: 0, outstanding: 1);
    }

    [Fact]
    public void DefaultLeaseIsInactiveAndDisposesToNothing()
    {
        MemoryLease<byte> lease = default;
        Assert.False(lease.IsActive);
        lease.Dispose();
        Assert.Throws<ObjectDisposedException>(() => lease.Memory);
    }

    [Fact]
    public void DisposesRacingOnTwoThreadsReturnTheBufferOnce()
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 2, TrimmingEnabled = false });
        const int Rounds = 2_000;
        using var barrier = new Barrier(2);
        var owners = new IMemoryOwner<byte>[Rounds];
        for (int i = 0; i < Rounds; i++)
        {
            owners[i] = pool.Rent(64);
        }

        // Both threads dispose every owner, meeting at a barrier every 64 so that they race on the same owners.
        TestThreads.Run(2, _ =>
        {
            try
            {
                for (int i = 0; i < Rounds; i++)
                {
                    if ((i & 63) == 0)
                    {
                        barrier.SignalAndWait();
                    }

                    owners[i].Dispose();
                }
            }
            catch
            {
                // A thread that fails leaves the barrier, so the other one finishes instead of waiting for it forever.
                barrier.RemoveParticipant();
                throw;
            }
        });
        PoolStatistics stats = pool.GetStatistics();
        Assert.Equal(Rounds, stats.Allocated);
        Assert.Equal(Rounds, stats.Pooled + stats.Dropped);
        Assert.Equal(0, stats.Outstanding);

        // Had any owner gone back twice, two of these would be one object.
        var rented = new HashSet<IMemoryOwner<byte>>(ReferenceEqualityComparer.Instance);
        for (int i = 0; i < Rounds; i++)
        {
            Assert.True(rented.Add(pool.Rent(64)), "One owner was handed out twice.");
        }
    }

    [Fact]
    public void DisposedPoolThrowsOnRentAndStillTakesOutstandingOwners()
    {
        StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> outstanding = pool.Rent(100);
        pool.Rent(100).Dispose();
        pool.Dispose();
        Assert.Throws<ObjectDisposedException>(() => pool.Rent(100));
        Assert.Throws<ObjectDisposedException>(() => pool.RentLease(100));
        outstanding.Dispose();
        PoolStatistics stats = pool.GetStatistics();
        StatisticsAssert.Counts(stats, pooled: 0, outstanding: 0);
        Assert.True(stats.IsConserved, stats.ToString());
    }

    [Fact]
    public void SharedPoolDisposeDoesNothing()
    {
        StripedMemoryPool<byte>.Shared.Dispose();
        using IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(10);
        Assert.Equal(10, owner.Memory.Length);
    }

    [Fact]
    public void StatisticsCountAllocationsAndPooledBytes()
    {
        using StripedMemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte>[] owners = Enumerable.Range(0, 10).Select(_ => pool.Rent(1000)).ToArray();
        Array.ForEach(owners, o => o.Dispose());
        PoolStatistics stats = pool.GetStatistics();
        StatisticsAssert.Counts(stats, allocated: 10, pooled: 10, outstanding: 0);
        Assert.Equal(10 * 1024, stats.PooledBytes);
        Assert.True(stats.IsConserved, stats.ToString());
        Assert.Equal(10, pool.Clear());
        Assert.Equal(0, pool.GetStatistics().Pooled);
    }

    [Fact]
    public unsafe void ClearOnReturnZeroesTheBuffer()
    {
        using var pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { ClearOnReturn = true, TrimmingEnabled = false });
        IMemoryOwner<byte> owner = pool.Rent(100);
        owner.Memory.Span.Fill(0xAB);
        nint address = (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(owner.Memory.Span));
        owner.Dispose();
        using IMemoryOwner<byte> again = pool.Rent(128);
        Assert.Equal(address, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(again.Memory.Span)));
        Assert.True(again.Memory.Span.IndexOfAnyExcept((byte)0) < 0);
    }

    [Fact]
    public void StructElementsArePinnedToo()
    {
        using var pool = StripedMemoryPool<Guid>.Create();
        using IMemoryOwner<Guid> owner = pool.Rent(10);
        Assert.Equal(10, owner.Memory.Length);
        owner.Memory.Span[9] = Guid.NewGuid();
        Assert.True(StripedArrayPool<Guid>.ArraysArePinned);
    }
}
