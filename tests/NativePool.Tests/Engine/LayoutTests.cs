using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Engine;

public class LayoutTests
{
    [Fact]
    public void TheCacheLineIs128BytesOnEveryArchitecture()
    {
        // 128 everywhere: Arm64 server lines, and x64's adjacent-line prefetch pairs (see CacheLine's remarks).
        Assert.Equal(128, CacheLine.Size);
        Assert.Equal(CacheLine.References, CacheLine.Size / IntPtr.Size);
    }

    [Fact]
    public void AStripeHeaderIsOnePaddingDistanceWithItsFieldsAtTheirOffsets()
    {
        Assert.Equal(CacheLine.Size, Unsafe.SizeOf<StripeHeader>());
        var header = new StripeHeader();
        Assert.Equal(0, OffsetOf(ref header, ref header.Claim));
        Assert.Equal(4, OffsetOf(ref header, ref header.Count));
        Assert.Equal(8, OffsetOf(ref header, ref header.Touched));
        Assert.Equal(12, OffsetOf(ref header, ref header.Capacity));
        Assert.Equal(16, OffsetOf(ref header, ref header.IdleSince));
    }

    [Fact]
    public void TheOccupancyMasksEachSitOnTheirOwnLine()
    {
        Assert.Equal(3 * CacheLine.Size, Unsafe.SizeOf<OccupancyMasks>());
        var masks = new OccupancyMasks();
        Assert.Equal(CacheLine.Size, OffsetOf(ref masks, ref masks.HasItems));
        Assert.Equal(2 * CacheLine.Size, OffsetOf(ref masks, ref masks.Full));
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(2, 7)]
    [InlineData(4, 16)]
    [InlineData(8, 33)]
    [InlineData(64, 5)]
    public unsafe void EveryStripeRegionStartsOnACacheLineBoundary(int stripes, int capacity)
    {
        var set = new StripeSet<object>(stripes, capacity);
        // The capacity rounded up to whole lines: no stripe shares a line, and none wastes one.
        Assert.Equal((capacity + CacheLine.References - 1) / CacheLine.References * CacheLine.References, set.SlotStride);
        for (int s = 0; s < stripes; s++)
        {
            int index = set.SlotBase + (s * set.SlotStride);
            Assert.True(index + capacity <= set.Slots.Length);
            nuint address = (nuint)Unsafe.AsPointer(ref set.Slots[index]);
            Assert.Equal((nuint)0, address % CacheLine.Size);
        }
    }

    [Fact]
    public unsafe void ThePinnedSlotArrayDoesNotMoveAcrossACompactingCollection()
    {
        var set = new StripeSet<object>(4, 8);
        nuint before = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(set.Slots));

        // Garbage around the array so a compaction would have somewhere to move it.
        for (int i = 0; i < 10_000; i++)
        {
            _ = new byte[64];
        }

        // The collections are the subject here: two compacting ones, each of which would move an unpinned array.
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);

        nuint after = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(set.Slots));
        Assert.Equal(before, after);
        Assert.Equal(2, GC.GetGeneration(set.Slots));
    }

    [Fact]
    public unsafe void PooledUnmanagedArraysArePinnedAndReferenceArraysAreNot()
    {
        byte[] bytes = PinnedArray<byte>.Allocate(4096);
        nuint before = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(bytes));
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        Assert.Equal(before, (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(bytes)));
        Assert.True(PinnedArray<byte>.IsPinned);
        Assert.True(PinnedArray<Guid>.IsPinned);
        Assert.False(PinnedArray<object>.IsPinned);
        Assert.False(PinnedArray<KeyValuePair<int, string>>.IsPinned);
    }

    [Fact]
    public void LeasesAreTheirFieldsRoundedToWholeWords()
    {
        // Generations are 64-bit: a lease is a reference and a generation, so a word's padding goes to the generation.
        Assert.Equal(8, IntPtr.Size);
        Assert.Equal(16, Unsafe.SizeOf<LeaseHandle>());
        Assert.Equal(16, Unsafe.SizeOf<PinnedLease<PinnedMemoryOwner<int>, int>>());
        Assert.Equal(40, Unsafe.SizeOf<ArrayLease<int>>());
        Assert.Equal(32, Unsafe.SizeOf<ObjectLease<object>>());
        Assert.Equal(24, Unsafe.SizeOf<MemoryLease<int>>());
        Assert.Equal(32, Unsafe.SizeOf<NativeBlockLease>());
        Assert.Equal(32, Unsafe.SizeOf<NativeStructLease<long>>());
        Assert.Equal(48, Unsafe.SizeOf<ArrayScope<int>>());
    }

    private static int OffsetOf<TStruct, TField>(ref TStruct owner, ref TField field) =>
        (int)Unsafe.ByteOffset(ref Unsafe.As<TStruct, byte>(ref owner), ref Unsafe.As<TField, byte>(ref field));
}
