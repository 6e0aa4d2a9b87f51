using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// Places new pinned arrays so that their data starts on a <see cref="Alignment"/>-byte boundary (see
/// <see cref="PinnedArray{T}"/> for why).
/// </summary>
/// <remarks>
/// <para>
/// The pinned object heap hands out memory in address order at the end of its region, so a placement allocates a
/// zero-length probe to learn where the next object goes, a filler that moves that point to an aligned data address,
/// then the array, and checks the result. An array that lands elsewhere is kept alive while the next attempt starts
/// just past it; after <see cref="MaximumAttempts"/> the last is used as it is and counted in <see cref="Misplaced"/>.
/// One lock serialises the engine's placements (taken only on a miss that allocates).
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

    /// <summary>How many arrays one placement allocates at most before it uses the last one unplaced.</summary>
    public const int MaximumAttempts = 4;

    /// <summary>The bytes a pinned array takes besides its elements on a 64-bit process (object header, method table, length).</summary>
    private const int ArrayOverhead = 24;

    private static readonly object s_lock = new();

    private static long s_misplaced;

    /// <summary>How many placed allocations in this process ended with an array off the boundary (after every attempt).</summary>
    public static long Misplaced => Volatile.Read(ref s_misplaced); // Read outside the lock: a monotonic count, any recent value will do.

    /// <summary>Whether <paramref name="address"/> is on the placement boundary.</summary>
    public static bool IsPlaced(nint address) => (address & (Alignment - 1)) == 0;

    /// <summary>The address of the first element of a pinned <paramref name="array"/> (it never moves).</summary>
    public static unsafe nint DataAddress<T>(T[] array) => (nint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array));

    /// <summary>
    /// Allocates a pinned array of exactly <paramref name="length"/> unmanaged elements, with its data on the boundary
    /// when it holds <see cref="MinimumPlacedBytes"/> or more and the heap allows.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static T[] Allocate<T>(int length, bool zeroed)
    {
        if (IntPtr.Size != 8 || (long)length * Unsafe.SizeOf<T>() < MinimumPlacedBytes)
        {
            return New<T>(length, zeroed);
        }

        lock (s_lock)
        {
            byte[] probe = GC.AllocateUninitializedArray<byte>(0, pinned: true);
            nint next = DataAddress(probe) + Footprint(0);
            T[]?[]? failed = null;
            for (int attempt = 1; ; attempt++)
            {
                byte[]? filler = Filler(next);
                T[] array = New<T>(length, zeroed);
                GC.KeepAlive(filler);
                nint data = DataAddress(array);
                if (IsPlaced(data) || attempt == MaximumAttempts)
                {
                    GC.KeepAlive(probe);
                    GC.KeepAlive(failed);
                    if (!IsPlaced(data))
                    {
                        Interlocked.Increment(ref s_misplaced); // Settles the count against a concurrent reader (the lock orders only writers).
                    }

                    return array;
                }

                // A failed attempt stays referenced until the placement ends, so the free space it landed in is not
                // offered to the next attempt, which starts just past it.
                failed ??= new T[MaximumAttempts - 1][];
                failed[attempt - 1] = array;
                next = data + Footprint((long)length * Unsafe.SizeOf<T>());
            }
        }
    }

    /// <summary>
    /// The length of the byte array that, allocated with its data at <paramref name="next"/>, ends where the next
    /// array's data is on the boundary; -1 when <paramref name="next"/> is on it already.
    /// </summary>
    internal static int FillerLength(nint next)
    {
        int gap = (int)(-next & (Alignment - 1));

        // The smallest array takes ArrayOverhead bytes: a shorter gap is widened by one boundary.
        return gap == 0 ? -1 : (gap < ArrayOverhead ? gap + Alignment : gap) - ArrayOverhead;
    }

    /// <summary>The bytes an array of <paramref name="bytes"/> element bytes takes on the heap, header included.</summary>
    internal static nint Footprint(long bytes) => (nint)((bytes + 7) & ~7L) + ArrayOverhead;

    private static byte[]? Filler(nint next) =>
        FillerLength(next) is int length and >= 0 ? GC.AllocateUninitializedArray<byte>(length, pinned: true) : null;

    private static T[] New<T>(int length, bool zeroed) =>
        zeroed ? GC.AllocateArray<T>(length, pinned: true) : GC.AllocateUninitializedArray<T>(length, pinned: true);
}
