using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// Puts the data of new pinned arrays on an <see cref="Alignment"/>-byte boundary (see <see cref="PinnedArray{T}"/> for
/// why): by construction where the pool hands out a view (an offset into a slightly longer array), and by allocation
/// order where it hands out the array itself.
/// </summary>
/// <remarks>
/// <para>
/// A view (<see cref="AllocateWithAlignedStart{T}"/>) is exact: the array is allocated less than <see cref="Alignment"/>
/// bytes longer and the view starts at the first element on the boundary, so it holds whatever the heap has been through.
/// </para>
/// <para>
/// An array handed out whole (<see cref="Allocate{T}"/>) cannot be moved after the fact. The pinned object heap puts a new
/// object at the start of the first free space that fits it, or at the end of its region; in a heap with no free
/// space in front (a fresh process, a pool that keeps its arrays) that is just past the last object. So a placement
/// allocates a filler that moves the end of the last placed array to an aligned data address (none if it is there
/// already), a second filler from where the first one landed if that was elsewhere (something else was allocated
/// since), then the array. Free space that collections opened (arrays dropped by pools or other code) can take the
/// small fillers while the array goes elsewhere: no order of allocations can steer it then, because the runtime offers
/// no aligned managed allocation. Such an array is used as it lands and counted in <see cref="Misplaced"/>; it is never
/// allocated twice, so a new array costs its own size plus at most two fillers of 80 bytes, usually one or none. One
/// lock serialises the process's placements (taken only on a miss that allocates).
/// </para>
/// <para>
/// The arithmetic assumes a 64-bit process (data 16 bytes after the method-table pointer, 24 bytes of header and length,
/// sizes rounded up to 8); a 32-bit process allocates without placement.
/// </para>
/// </remarks>
internal static class PinnedArrayPlacement
{
    /// <summary>The boundary a placed array's data starts on: a multiple of 64 keeps every copy distance fast.</summary>
    public const int Alignment = 64;

    /// <summary>Arrays of fewer bytes are not placed: copies this short never use <c>rep movsb</c>, and the filler would cost more than they hold.</summary>
    public const int MinimumPlacedBytes = 1024;

    /// <summary>The bytes a pinned array takes besides its elements on a 64-bit process (object header, method table, length).</summary>
    private const int ArrayOverhead = 24;

    private static readonly object s_lock = new();

    private static long s_misplaced;

    // Where the data of the object after the last placed array goes, if the heap put nothing in between; guarded by s_lock.
    private static nint s_next;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    // The heap bytes of every filler this thread's placements allocated.
    [ThreadStatic]
    private static long t_fillerBytes;
#pragma warning restore IDE1006

    /// <summary>How many placed arrays in this process have their data off the boundary (see the remarks for when).</summary>
    public static long Misplaced => Volatile.Read(ref s_misplaced); // Read outside the lock: a monotonic count, any recent value will do.

    /// <summary>The heap bytes of every filler the calling thread's placements allocated (what placing costs beside the arrays).</summary>
    public static long FillerBytes => t_fillerBytes;

    /// <summary>Whether <paramref name="address"/> is on the placement boundary.</summary>
    public static bool IsPlaced(nint address) => (address & (Alignment - 1)) == 0;

    /// <summary>The address of the first element of a pinned <paramref name="array"/> (it never moves).</summary>
    public static unsafe nint DataAddress<T>(T[] array) => (nint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array));

    /// <summary>Allocates a pinned array of exactly <paramref name="length"/> unmanaged elements, its data on the boundary when it holds <see cref="MinimumPlacedBytes"/> or more and the heap allows.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static T[] Allocate<T>(int length, bool zeroed)
    {
        if (IntPtr.Size != 8 || (long)length * Unsafe.SizeOf<T>() < MinimumPlacedBytes)
        {
            return New<T>(length, zeroed);
        }

        lock (s_lock)
        {
            // The filler for where the last placed array ended (the heap's next object, unless something else was
            // allocated since), or a zero-length probe when nothing was placed yet; none when that point is on the boundary.
            byte[]? first = s_next == 0 ? Pinned(0) : FillerLength(s_next) is int fill and >= 0 ? Pinned(fill) : null;
            byte[]? second = null;
            if (first is not null && FillerLength(DataAddress(first) + Footprint(first.Length)) is int correction and >= 0)
            {
                // The first object landed elsewhere: the filler for where it ended.
                second = Pinned(correction);
            }

            T[] array = New<T>(length, zeroed);
            GC.KeepAlive(first);
            GC.KeepAlive(second);
            nint data = DataAddress(array);
            s_next = data + Footprint((long)length * Unsafe.SizeOf<T>());
            CountIfMisplaced(data);
            return array;
        }
    }

    /// <summary>Allocates a pinned array of <paramref name="length"/> unmanaged elements from <paramref name="start"/>, an element on the boundary (0 under <see cref="MinimumPlacedBytes"/>).</summary>
    /// <remarks>For element sizes dividing the boundary the array is longer by under <see cref="Alignment"/> bytes and exact, unless no element can start there (16-byte and wider
    /// elements with data 8 bytes off: index 0, counted in <see cref="Misplaced"/>); other sizes are placed as <see cref="Allocate{T}"/> places an array.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static T[] AllocateWithAlignedStart<T>(int length, out int start)
    {
        int size = Unsafe.SizeOf<T>();
        start = 0;
        if (Alignment % size != 0)
        {
            return Allocate<T>(length, zeroed: false);
        }

        if (IntPtr.Size != 8 || (long)length * size < MinimumPlacedBytes)
        {
            return New<T>(length, zeroed: false);
        }

        int slack = (Alignment / size) - 1;
        T[] array = New<T>(length + slack, zeroed: false);
        nint data = DataAddress(array);
        while (start < slack && !IsPlaced(data + (start * size)))
        {
            start++;
        }

        CountIfMisplaced(data + (start * size));
        return array;
    }

    /// <summary>The length of the byte array that, with its data at <paramref name="next"/>, ends where the next array's data is on the boundary; -1 when <paramref name="next"/> is on it.</summary>
    internal static int FillerLength(nint next)
    {
        int gap = (int)(-next & (Alignment - 1));

        // The smallest array takes ArrayOverhead bytes: a shorter gap is widened by one boundary.
        return gap == 0 ? -1 : (gap < ArrayOverhead ? gap + Alignment : gap) - ArrayOverhead;
    }

    /// <summary>The bytes an array of <paramref name="bytes"/> element bytes takes on the heap, header included.</summary>
    internal static nint Footprint(long bytes) => (nint)((bytes + 7) & ~7L) + ArrayOverhead;

    private static void CountIfMisplaced(nint data)
    {
        if (!IsPlaced(data))
        {
            Interlocked.Increment(ref s_misplaced); // Settles the count between placements on two threads (the view path takes no lock).
        }
    }

    private static byte[] Pinned(int length)
    {
        t_fillerBytes += Footprint(length);
        return GC.AllocateUninitializedArray<byte>(length, pinned: true);
    }

    private static T[] New<T>(int length, bool zeroed) =>
        zeroed ? GC.AllocateArray<T>(length, pinned: true) : GC.AllocateUninitializedArray<T>(length, pinned: true);
}
