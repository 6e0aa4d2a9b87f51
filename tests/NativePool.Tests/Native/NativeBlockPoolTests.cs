using NativePool.Tests.Engine;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Native;

/// <summary>Aligned native blocks: alignment, leases, budget, trimming, disposal and freeing exactly once.</summary>
public sealed class NativeBlockPoolTests
{
    private static NativeBlockPool CreatePool(int alignment = 128, long budget = NativeBlockPoolOptions.DefaultMaximumRetainedBytesPerSizeClass, int cachingThreads = -1) =>
        NativeBlockPool.Create(new NativeBlockPoolOptions
        {
            Alignment = alignment,
            StripeCount = 1,
            TrimmingEnabled = false,
            MaximumRetainedBytesPerSizeClass = budget,
            MaximumCachingThreads = cachingThreads,
        });

    public static TheoryData<int> Alignments => new() { 128, 256, 4096, 65_536, 1 << 21 };

    [Theory]
    [MemberData(nameof(Alignments))]
    public unsafe void EveryClassAndTheOversizeBlockAreAlignedAsRequested(int alignment)
    {
        using var pool = NativeBlockPool.Create(new NativeBlockPoolOptions { Alignment = alignment, MaximumBlockSize = 1 << 20, TrimmingEnabled = false });
        Assert.Equal(alignment, pool.Alignment);
        var leases = new List<NativeBlockLease>();
        for (int size = 1; size <= pool.MaximumBlockSize * 2; size *= 2)
        {
            foreach (int length in new[] { size, size + 1 })
            {
                NativeBlockLease lease = pool.Rent(length);
                Assert.Equal(0, (nint)lease.Pointer % alignment);
                // A class block is its power of two (128 bytes and up); a longer one whole alignment units.
                int expected = length <= pool.MaximumBlockSize
                    ? Math.Max(128, (int)BitOperations.RoundUpToPowerOf2((uint)length))
                    : (length + alignment - 1) / alignment * alignment;
                Assert.Equal(expected, lease.Capacity);
                leases.Add(lease);
            }
        }

        leases.ForEach(l => l.Dispose());
    }

    [Fact]
    public void BlocksComeInPowerOfTwoClassesFromOneCacheLine()
    {
        using NativeBlockPool pool = CreatePool();
        Assert.Equal(128, Capacity(pool, 0));
        Assert.Equal(128, Capacity(pool, 1));
        Assert.Equal(128, Capacity(pool, 128));
        Assert.Equal(256, Capacity(pool, 129));
        Assert.Equal(4096, Capacity(pool, 4096));
        Assert.Equal(1 << 20, Capacity(pool, 1 << 20));
        Assert.Equal((1 << 20) + 128, Capacity(pool, (1 << 20) + 1));

        static int Capacity(NativeBlockPool pool, int length)
        {
            using NativeBlockLease lease = pool.Rent(length);
            Assert.Equal(length, lease.Length);
            Assert.Equal(length, lease.Span.Length);
            Assert.Equal(length, lease.Memory.Length);
            return lease.Capacity;
        }
    }

    [Fact]
    public unsafe void LeaseViewsShareTheBlock()
    {
        using NativeBlockPool pool = CreatePool();
        using NativeBlockLease lease = pool.Rent(64);
        lease.Span.Clear();
        lease.AsRef<long>() = 0x0102030405060708;
        Assert.Equal(8, lease.Span[0]);
        Assert.Equal(16, lease.AsSpan<int>().Length);
        Assert.Equal(0x05060708, lease.AsSpan<int>()[0]);
        Assert.Equal((nint)lease.Pointer, (nint)lease.AsPointer<long>());
        Assert.Equal((nint)lease.Pointer, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(lease.Memory.Span)));
        using MemoryHandle handle = lease.Memory.Pin();
        Assert.Equal((nint)lease.Pointer, (nint)handle.Pointer);
    }

    [Fact]
    public unsafe void AddressIsStableAcrossACompactingCollection()
    {
        using NativeBlockPool pool = CreatePool();
        using NativeBlockLease lease = pool.Rent(4000);
        Memory<byte> memory = lease.Memory;
        using MemoryHandle handle = memory.Pin();
        nint address = (nint)handle.Pointer;
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        Assert.Equal(address, (nint)lease.Pointer);
        Assert.Equal(address, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(memory.Span)));
    }

    [Fact]
    public void RentingAfterReturnGivesBackTheSameBlock()
    {
        using NativeBlockPool pool = CreatePool();
        nint first;
        unsafe
        {
            using NativeBlockLease lease = pool.Rent(1000);
            first = (nint)lease.Pointer;
        }

        unsafe
        {
            using NativeBlockLease again = pool.Rent(900);
            Assert.Equal(first, (nint)again.Pointer);
        }
    }

    [Theory]
    [InlineData(128)]
    [InlineData(4096)]
    [InlineData(65_536)]
    public void RentAndDisposeAllocateNothingInSteadyState(int length)
    {
        using NativeBlockPool pool = CreatePool();
        using NativeStructPool<Guid> structs = NativeStructPool<Guid>.Create();
        Assert.Equal(0, SteadyStateAllocation.Measure(count =>
        {
            for (int i = 0; i < count; i++)
            {
                using (NativeBlockLease lease = pool.Rent(length))
                {
                    lease.Span[0] = 1;
                }

                using NativeStructLease<Guid> value = structs.Rent();
                value.Value = Guid.Empty;
            }
        }));
    }

    [Fact]
    public void CopiesOfALeaseReturnTheBlockOnce()
    {
        using NativeBlockPool pool = CreatePool();
        NativeBlockLease lease = pool.Rent(100);
        NativeBlockLease copy = lease;
        Assert.True(copy == lease);
        lease.Dispose();
        copy.Dispose();
        lease.Dispose();
        Assert.False(copy.IsActive);
        using NativeBlockLease next = pool.Rent(100);
        copy.Dispose();
        Assert.True(next.IsActive);
        Assert.True(next != copy);
        NativeBlockStatistics stats = pool.GetStatistics();
        Assert.Equal(1, stats.Blocks.Allocated);
        Assert.Equal(0, stats.Blocks.Pooled);
        Assert.Equal(1, stats.Blocks.Outstanding);
    }

    [Fact]
    public void EndedAndDefaultLeasesThrowObjectDisposedOnEveryView()
    {
        using NativeBlockPool pool = CreatePool();
        NativeBlockLease ended = pool.Rent(100);
        ended.Dispose();
        foreach (NativeBlockLease lease in new[] { ended, default })
        {
            Assert.False(lease.IsActive);
            Assert.Throws<ObjectDisposedException>(() => lease.Span.Length);
            Assert.Throws<ObjectDisposedException>(() => lease.Memory);
            Assert.Throws<ObjectDisposedException>(() => lease.Capacity);
            Assert.Throws<ObjectDisposedException>(() => lease.AsSpan<int>().Length);
            Assert.Throws<ObjectDisposedException>(() => lease.AsRef<int>());
            unsafe
            {
                Assert.Throws<ObjectDisposedException>(() => (nint)lease.Pointer);
                Assert.Throws<ObjectDisposedException>(() => (nint)lease.AsPointer<int>());
            }

            lease.Dispose();
        }
    }

    [Fact]
    public void SavedMemoryThrowsOnceItsLeaseEnded()
    {
        using NativeBlockPool pool = CreatePool();
        NativeBlockLease lease = pool.Rent(100);
        Memory<byte> memory = lease.Memory;
        lease.Dispose();
        Assert.Throws<ObjectDisposedException>(() => memory.Span.Length);
        Assert.Throws<ObjectDisposedException>(() => memory.Pin());
    }

    [Fact]
    public void DisposingTheMemoryManagerDoesNotReturnTheBlock()
    {
        using NativeBlockPool pool = CreatePool();
        using NativeBlockLease lease = pool.Rent(100);
        Assert.True(MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(lease.Memory, out MemoryManager<byte>? manager));
        ((IDisposable)manager!).Dispose();
        Assert.True(lease.IsActive);
        Assert.Equal(100, lease.Memory.Span.Length);
    }

    [Fact]
    public void ReturnsPastTheBudgetFreeTheBlock()
    {
        // One stripe, a budget of one 4 KiB block, no thread slots: the second and third returns are freed.
        using NativeBlockPool pool = CreatePool(budget: 4096, cachingThreads: 0);
        NativeBlockLease[] leases = Enumerable.Range(0, 3).Select(_ => pool.Rent(4096)).ToArray();
        Array.ForEach(leases, l => l.Dispose());
        NativeBlockStatistics stats = pool.GetStatistics();
        Assert.Equal(3, stats.BlocksAllocated);
        Assert.Equal(2, stats.BlocksFreed);
        Assert.Equal(2, stats.Blocks.Dropped);
        Assert.Equal(1, stats.Blocks.Pooled);
        Assert.Equal(4096, stats.PooledBytes);
        Assert.Equal(4096, stats.LiveBytes);
        Assert.Equal(0, stats.OutstandingBytes);
    }

    [Fact]
    public void ClearFreesEveryPooledBlock()
    {
        using NativeBlockPool pool = CreatePool();
        NativeBlockLease[] leases = Enumerable.Range(0, 10).Select(i => pool.Rent(128 << (i % 4))).ToArray();
        Array.ForEach(leases, l => l.Dispose());
        Assert.Equal(10, pool.GetStatistics().Blocks.Pooled);
        Assert.Equal(10, pool.Clear());
        NativeBlockStatistics stats = pool.GetStatistics();
        Assert.Equal(10, stats.BlocksFreed);
        Assert.Equal(0, stats.LiveBytes);
        Assert.Equal(10, stats.Blocks.Trimmed);
        Assert.Equal(0, stats.Blocks.Outstanding);
    }

    [Fact]
    public void TrimFreesBlocksIdleForTheTrimAge()
    {
        var clock = new ManualClock();
        using var pool = NativeBlockPool.Create(new NativeBlockPoolOptions
        {
            StripeCount = 1,
            TrimmingEnabled = false,
            MaximumCachingThreads = 0,
            TrimAge = TimeSpan.FromSeconds(10),
            TimeProvider = clock,
            PressureSource = () => MemoryPressure.Low,
        });
        NativeBlockLease[] leases = Enumerable.Range(0, 8).Select(_ => pool.Rent(1000)).ToArray();
        Array.ForEach(leases, l => l.Dispose());
        Assert.Equal(0, pool.Trim());
        clock.Advance(TimeSpan.FromSeconds(1));
        Assert.Equal(0, pool.Trim());
        clock.Advance(TimeSpan.FromSeconds(11));
        Assert.Equal(4, pool.Trim());
        Assert.Equal(4, pool.GetStatistics().BlocksFreed);
    }

    [Fact]
    public void FreesEqualAllocationsAfterDispose()
    {
        NativeBlockPool pool = CreatePool(budget: 64 * 1024);
        NativeBlockCounters counters = pool.Core.Counters;
        var random = new Random(42);
        var held = new List<NativeBlockLease>();
        for (int i = 0; i < 5_000; i++)
        {
            held.Add(pool.Rent(random.Next(0, 3 << 20)));
            if (held.Count > 20 || random.Next(3) == 0)
            {
                int index = random.Next(held.Count);
                held[index].Dispose();
                held.RemoveAt(index);
            }
        }

        NativeBlockLease lateLease = held[0];
        held.RemoveAt(0);
        held.ForEach(l => l.Dispose());
        pool.Dispose();
        Assert.Equal(counters.AllocatedBlocks - 1, counters.FreedBlocks);
        lateLease.Dispose();
        Assert.Equal(counters.AllocatedBlocks, counters.FreedBlocks);
        Assert.Equal(counters.AllocatedBytes, counters.FreedBytes);
        NativeBlockStatistics stats = pool.GetStatistics();
        Assert.Equal(0, stats.LiveBlocks);
        Assert.Equal(0, stats.Blocks.Outstanding);
        Assert.True(stats.Blocks.IsConserved, stats.ToString());
        Assert.Throws<ObjectDisposedException>(() => pool.Rent(10));
        pool.Dispose();
    }

    [Fact]
    public void APoolDroppedWithoutDisposeIsFreedByFinalizers()
    {
        NativeBlockCounters counters = UseAndDropAPoolOnAThreadThatExits();

        // The pool's finalizer frees its stripes; the dead thread's cache, finalized too, frees what it parked.
        Finalization.WaitUntil(
            () => counters.FreedBlocks == counters.AllocatedBlocks,
            () => $"{counters.FreedBlocks} of {counters.AllocatedBlocks} blocks freed");
        Assert.Equal(40, counters.AllocatedBlocks);
        Assert.Equal(counters.AllocatedBytes, counters.FreedBytes);
    }

    [Fact]
    public void ALeaseNeverDisposedIsNeverFreedUnderIt()
    {
        (NativeBlockLease lease, NativeBlockCounters counters) = RentFromAPoolThatIsDropped();
        Finalization.CollectAndFinalize();
        Finalization.CollectAndFinalize();
        Assert.True(lease.IsActive);
        Assert.Equal(0, counters.FreedBlocks);
        lease.Span.Fill(7);
        Assert.True(lease.Span.IndexOfAnyExcept((byte)7) < 0);
        lease.Dispose();
        Assert.False(lease.IsActive);
    }

    [Fact]
    public void SharedPoolDisposeDoesNothing()
    {
        NativeBlockPool.Shared.Dispose();
        using NativeBlockLease lease = NativeBlockPool.Shared.Rent(10);
        Assert.Equal(10, lease.Span.Length);
        Assert.Equal(128, NativeBlockPool.Shared.Alignment);
        Assert.Equal(1 << 20, NativeBlockPool.Shared.MaximumBlockSize);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static NativeBlockCounters UseAndDropAPoolOnAThreadThatExits()
    {
        NativeBlockCounters? counters = null;
        TestThreads.RunOnNewThread(() =>
        {
            var pool = NativeBlockPool.Create(new NativeBlockPoolOptions { TrimmingEnabled = false });
            counters = pool.Core.Counters;
            var leases = new List<NativeBlockLease>();
            for (int i = 0; i < 40; i++)
            {
                leases.Add(pool.Rent(128 << (i % 5)));
            }

            // Some go to the thread's slots, the rest to the stripes; none is freed before the pool is dropped.
            leases.ForEach(l => l.Dispose());
        });
        return counters!;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (NativeBlockLease Lease, NativeBlockCounters Counters) RentFromAPoolThatIsDropped()
    {
        NativeBlockPool pool = CreatePool();
        return (pool.Rent(256), pool.Core.Counters);
    }
}
