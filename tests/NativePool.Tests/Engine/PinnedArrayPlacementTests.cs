using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Engine;

/// <summary>
/// Where the pools put the pinned arrays they create: from 1 KiB up, every array's data starts on a 64-byte boundary,
/// so the distance between any two pooled buffers is a multiple of 64 (the copy between them never runs at a slow
/// distance modulo the page). The heap may defeat a placement (reused free space, another thread's pinned allocation);
/// such an array is counted, so the checks here hold whatever the heap did: every array off the boundary was counted.
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
    public unsafe void MemoryPoolBuffersStartOnACacheLine()
    {
        using StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create();
        long misplacedBefore = PinnedArrayPlacement.Misplaced;
        var owners = new List<IMemoryOwner<byte>>();
        int offBoundary = 0;
        foreach (int bytes in s_classBytes)
        {
            IMemoryOwner<byte> owner = pool.Rent(bytes);
            owners.Add(owner);
            using MemoryHandle handle = owner.Memory.Pin();
            offBoundary += (nint)handle.Pointer % PinnedArrayPlacement.Alignment == 0 ? 0 : 1;
        }

        Assert.True(
            offBoundary <= PinnedArrayPlacement.Misplaced - misplacedBefore,
            $"{offBoundary} memory-pool buffers are off the boundary; the placement counted {PinnedArrayPlacement.Misplaced - misplacedBefore}.");
        owners.ForEach(owner => owner.Dispose());
    }

    [Fact]
    public void AnArrayLongerThanTheLargestClassStartsOnACacheLine()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { MaximumArrayLength = 64 * 1024 });
        long misplacedBefore = PinnedArrayPlacement.Misplaced;
        byte[] oversize = pool.Rent(100_000);
        Assert.Equal(100_000, oversize.Length);
        Assert.True(IsOnBoundary(oversize) || PinnedArrayPlacement.Misplaced > misplacedBefore, "The oversize array is off the boundary and was not counted.");
        pool.Return(oversize);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(8)]
    [InlineData(16)]
    [InlineData(24)]
    [InlineData(32)]
    [InlineData(40)]
    [InlineData(48)]
    [InlineData(56)]
    public void TheFillerEndsWhereTheNextArraysDataIsOnTheBoundary(int offset)
    {
        // Any heap address with the given offset in its cache line; the arithmetic is the same on every line.
        nint next = (nint)0x1234_5000 + offset;
        int filler = PinnedArrayPlacement.FillerLength(next);

        if (offset == 0)
        {
            Assert.Equal(-1, filler);
            return;
        }

        Assert.True(filler >= 0, $"A filler of {filler} bytes cannot be allocated.");
        nint after = next + PinnedArrayPlacement.Footprint(filler);
        Assert.Equal(0, after % PinnedArrayPlacement.Alignment);

        // Never more than one boundary of waste beside the filler's own header.
        Assert.True(PinnedArrayPlacement.Footprint(filler) < PinnedArrayPlacement.Alignment + 24 + 8, $"The filler takes {PinnedArrayPlacement.Footprint(filler)} bytes.");
    }

    [Fact]
    public void TheFootprintModelMatchesTwoPinnedArraysAllocatedBackToBack()
    {
        // The placement predicts where the next pinned array goes from the previous one's address and length. Where the
        // heap put the second array right after the first, the distance is exactly the model's footprint; free space
        // reused after a collection, or another test's pinned allocation in between, can separate a pair, so pairs are
        // allocated (and kept, using up such space) until one lands back to back. A wrong model never matches.
        var pairs = new List<byte[]>();
        for (int attempt = 0; attempt < 64; attempt++)
        {
            byte[] first = GC.AllocateUninitializedArray<byte>(100, pinned: true);
            byte[] second = GC.AllocateUninitializedArray<byte>(100, pinned: true);
            pairs.Add(first);
            pairs.Add(second);
            if (PinnedArrayPlacement.DataAddress(second) - PinnedArrayPlacement.DataAddress(first) == PinnedArrayPlacement.Footprint(first.Length))
            {
                return;
            }
        }

        Assert.Fail("No pair of 64 pinned arrays allocated one after the other sat one footprint apart.");
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
