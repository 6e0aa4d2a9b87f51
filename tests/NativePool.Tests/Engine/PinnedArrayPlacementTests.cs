using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Engine;

/// <summary>
/// Where the pools put the pinned buffers they create. A memory-pool buffer of 1 KiB or more starts on a 64-byte
/// boundary by construction, counted here after full collections, churn across pools and threads and other code's
/// pinned arrays. An array handed out whole is placed by allocation order: the heap may defeat that (reused free space,
/// another thread's pinned allocation), and every array off the boundary is then counted; a new array is allocated
/// once, so it costs its own size plus a little garbage, never a retry.
/// </summary>
public class PinnedArrayPlacementTests
{
    /// <summary>Byte lengths of every size class from 1 KiB to 1 MiB.</summary>
    private static readonly int[] s_classBytes = [.. Enumerable.Range(10, 11).Select(shift => 1 << shift)];

    [Fact]
    public void ArraysTheSharedBytePoolCreatesStartOnACacheLine() =>
        AssertPlaced(StripedArrayPool<byte>.Shared, sizeof(byte));

    [Fact]
    public void ArraysAnIndependentPoolCreatesZeroedStartOnACacheLine() =>
        AssertPlaced(StripedArrayPool<byte>.Create(), sizeof(byte));

    [Fact]
    public void ArraysOfWiderElementsStartOnACacheLine()
    {
        AssertPlaced(StripedArrayPool<char>.Create(), sizeof(char));
        AssertPlaced(StripedArrayPool<int>.Create(), sizeof(int));
        AssertPlaced(StripedArrayPool<long>.Create(), sizeof(long));
    }

    [Fact]
    public void EveryMemoryPoolBufferStartsOnACacheLineWhateverTheHeapWentThrough()
    {
        var pinnedGarbage = new Random(7);
        var foreignKept = new List<byte[]>();
        int counted = 0;
        int offBoundary = 0;
        for (int round = 0; round < 6; round++)
        {
            // Other code's pinned arrays of every small size, half kept, half dropped: the free space a collection
            // opens between them starts at any offset in a cache line.
            for (int i = 0; i < 64; i++)
            {
                byte[] foreign = GC.AllocateUninitializedArray<byte>(pinnedGarbage.Next(0, 9000), pinned: true);
                if ((i & 1) == 0)
                {
                    foreignKept.Add(foreign);
                }
            }

            // Pools of four element types on two threads, each renting every class twice, keeping half, dropping the pool.
            TestThreads.Run(2, thread =>
            {
                (int Counted, int Off) local = (0, 0);
                local = CountMemoryPoolStarts<byte>(local, sizeof(byte));
                local = CountMemoryPoolStarts<char>(local, sizeof(char));
                local = CountMemoryPoolStarts<int>(local, sizeof(int));
                local = CountMemoryPoolStarts<long>(local, sizeof(long));
                Interlocked.Add(ref counted, local.Counted);
                Interlocked.Add(ref offBoundary, local.Off);
            });

            // A full blocking, compacting collection turns the dropped pools' buffers and the dropped foreign arrays into
            // free space (the pinned heap is swept, never compacted).
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        }

        GC.KeepAlive(foreignKept);
        Assert.Equal(6 * 2 * 4 * 2 * s_classBytes.Length, counted);
        Assert.Equal(0, offBoundary);
    }

    [Fact]
    public void AMemoryPoolBufferCostsItsOwnSizeAndLessThanACacheLine()
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create();

        // A class under 1 KiB has no slack: what its new buffer allocates besides its array is the pool's own owner objects.
        using IMemoryOwner<byte> small = pool.Rent(512);
        long ownerBytes = NewBufferBytes(pool, 512) - PinnedArrayPlacement.Footprint(512);
        foreach (int bytes in s_classBytes)
        {
            long arrayBytes = NewBufferBytes(pool, bytes) - ownerBytes;
            Assert.True(arrayBytes <= PinnedArrayPlacement.Footprint(bytes) * 1.10, $"The array of a new buffer of {bytes} bytes took {arrayBytes} bytes.");
        }
    }

    [Fact]
    public void ANewArrayIsAllocatedOnceWhereverItLands()
    {
        // Whatever the heap does with the placement, the array itself is allocated once, beside ArrayPool.Create(),
        // which allocates the array alone; the placement adds at most two fillers of 80 bytes per array, and summed over
        // new arrays of every class from 1 KiB to 16 MiB the fillers stay under a tenth of the arrays' own bytes.
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { MaximumArrayLength = 16 * 1024 * 1024 });
        ArrayPool<byte> peer = ArrayPool<byte>.Create(16 * 1024 * 1024, 8);
        var ours = new List<byte[]>();
        var theirs = new List<byte[]>();
        long allFillers = 0;
        long allArrayBytes = 0;
        for (int shift = 10; shift <= 24; shift++)
        {
            // The first rent of a class also sets up the class's thread tier on either side; the next ones are new arrays.
            ours.Add(pool.Rent(1 << shift));
            theirs.Add(peer.Rent(1 << shift));
            long fillersBefore = PinnedArrayPlacement.FillerBytes;
            for (int copy = 0; copy < 6; copy++)
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                ours.Add(pool.Rent(1 << shift));
                long oursAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
                before = GC.GetAllocatedBytesForCurrentThread();
                theirs.Add(peer.Rent(1 << shift));
                long peerAllocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Assert.True(peerAllocated >= PinnedArrayPlacement.Footprint(1 << shift), $"The peer allocated {peerAllocated} bytes for {1 << shift}.");
                Assert.True(oursAllocated < peerAllocated + PinnedArrayPlacement.Footprint(1 << shift), $"A new array of {1 << shift} bytes allocated {oursAllocated} bytes: allocated twice.");
            }

            // Per array at most two fillers, whatever other threads allocate on the pinned heap meanwhile (then the first
            // filler lands elsewhere and the second corrects it).
            long fillers = PinnedArrayPlacement.FillerBytes - fillersBefore;
            Assert.True(fillers <= 6 * 2 * 80, $"Six new arrays of {1 << shift} bytes took {fillers} bytes of fillers.");
            allFillers += fillers;
            allArrayBytes += 6 * PinnedArrayPlacement.Footprint(1 << shift);
        }

        Assert.True(allFillers <= 0.10 * allArrayBytes, $"New arrays of {allArrayBytes} bytes took {allFillers} bytes of fillers.");

        ours.ForEach(array => pool.Return(array));
        theirs.ForEach(array => peer.Return(array));
    }

    /// <summary>What a new buffer of <paramref name="bytes"/> allocates, the class's first rent (which also sets up its thread tier) held meanwhile.</summary>
    private static long NewBufferBytes(StripedMemoryPool<byte> pool, int bytes)
    {
        using IMemoryOwner<byte> first = pool.Rent(bytes);
        long before = GC.GetAllocatedBytesForCurrentThread();
        IMemoryOwner<byte> owner = pool.Rent(bytes);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        owner.Dispose();
        return allocated;
    }

    private static unsafe (int Counted, int Off) CountMemoryPoolStarts<T>((int Counted, int Off) totals, int elementSize)
        where T : unmanaged
    {
        StripedMemoryPool<T> pool = StripedMemoryPool<T>.Create();
        var kept = new List<IMemoryOwner<T>>();
        foreach (int bytes in s_classBytes)
        {
            for (int copy = 0; copy < 2; copy++)
            {
                IMemoryOwner<T> owner = pool.Rent(bytes / elementSize);
                using (MemoryHandle handle = owner.Memory.Pin())
                {
                    totals.Counted++;
                    totals.Off += (nint)handle.Pointer % PinnedArrayPlacement.Alignment == 0 ? 0 : 1;
                }

                if (copy == 0)
                {
                    kept.Add(owner);
                }
                else
                {
                    owner.Dispose();
                }
            }
        }

        // Half go back (kept by the pool until it is dropped), half are still out when the pool is dropped.
        GC.KeepAlive(kept);
        return totals;
    }

    private static void AssertPlaced<T>(StripedArrayPool<T> pool, int elementSize)
    {
        long misplacedBefore = PinnedArrayPlacement.Misplaced;
        var rented = new List<T[]>();
        int offBoundary = 0;
        foreach (int bytes in s_classBytes)
        {
            // Two of each class at once: the second is always a new array or one the pool created earlier.
            for (int copy = 0; copy < 2; copy++)
            {
                T[] array = pool.Rent(bytes / elementSize);
                rented.Add(array);
                offBoundary += IsOnBoundary(array) ? 0 : 1;
            }
        }

        // Each array off the boundary was counted by the placement, in this test or before it (a pooled array the
        // Shared pool created in another test). The pool's arrays were created by this process's placements only.
        Assert.True(
            offBoundary <= PinnedArrayPlacement.Misplaced,
            $"{offBoundary} of {rented.Count} arrays are off the boundary; the placement counted {PinnedArrayPlacement.Misplaced} in this process ({PinnedArrayPlacement.Misplaced - misplacedBefore} here).");
        rented.ForEach(array => pool.Return(array));
    }

    private static unsafe bool IsOnBoundary<T>(T[] array) =>
        (nint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array)) % PinnedArrayPlacement.Alignment == 0;
}
