using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>The hot, mutable state of one stripe. Mutable struct: do not make readonly.</summary>
/// <remarks>
/// Layout (checked by <c>LayoutTests</c>): <see cref="CacheLine.Size"/> bytes in all; <see cref="Claim"/> at 0,
/// <see cref="Count"/> at 4, <see cref="Touched"/> at 8, <see cref="Capacity"/> at 12, <see cref="IdleSince"/> at 16, the
/// rest padding, one header per array element, so two stripes' hot fields are always a full padding distance apart.
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = CacheLine.Size)]
internal struct StripeHeader
{
    /// <summary>The stripe's ownership word: 0 free, 1 while one thread holds it for a push, pop or trim (a few instructions, never blocking).</summary>
    [FieldOffset(0)] public int Claim;

    /// <summary>Items on the stripe. Written only by the claim holder; read without the claim only as a hint.</summary>
    [FieldOffset(4)] public int Count;

    /// <summary>1 when a push or pop touched the stripe since the last trim pass; cleared by the trimmer.</summary>
    [FieldOffset(8)] public int Touched;

    /// <summary>Items the stripe holds at most; written once, before the stripes are published, and only read afterwards.</summary>
    [FieldOffset(12)] public int Capacity;

    /// <summary>The trim clock's reading (ms) when the trimmer first found the stripe untouched; 0 when not idle.</summary>
    [FieldOffset(16)] public long IdleSince;
}

/// <summary>The two occupancy bitmasks of a stripe set, each on its own line. Mutable struct: do not make readonly.</summary>
/// <remarks>
/// Layout (checked by <c>LayoutTests</c>): 3 × <see cref="CacheLine.Size"/> bytes; <see cref="HasItems"/> at
/// <see cref="CacheLine.Size"/>, <see cref="Full"/> at 2 × <see cref="CacheLine.Size"/>, so neither shares a line with the
/// other or with the owning object's other fields. Bit <c>s</c> is stripe <c>s</c>'s, kept lazily (see <c>StripeSet</c>).
/// </remarks>
[StructLayout(LayoutKind.Explicit, Size = 3 * CacheLine.Size)]
internal struct OccupancyMasks
{
    /// <summary>Bit s set: stripe s may hold items (clear: it holds none).</summary>
    [FieldOffset(CacheLine.Size)] public long HasItems;

    /// <summary>Bit s set: stripe s is at capacity (clear: it may have room).</summary>
    [FieldOffset(2 * CacheLine.Size)] public long Full;

    /// <summary>Sets <paramref name="stripe"/>'s bit in <paramref name="mask"/> unless it is set already; only the holder of that stripe's claim calls it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Set(ref long mask, int stripe)
    {
        long bit = 1L << stripe;

        // Volatile: only this stripe's claim holder (the caller) flips its bit, so this read is exact and saves the lock.
        if ((Volatile.Read(ref mask) & bit) == 0)
        {
            // Interlocked: races with other stripes' holders flipping their own bits in the same word.
            Interlocked.Or(ref mask, bit);
        }
    }

    /// <summary>Clears <paramref name="stripe"/>'s bit in <paramref name="mask"/> unless it is clear already; only the holder of that stripe's claim calls it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Clear(ref long mask, int stripe)
    {
        long bit = 1L << stripe;

        // Volatile: as in Set, the caller alone flips this bit.
        if ((Volatile.Read(ref mask) & bit) != 0)
        {
            // Interlocked: races with other stripes' holders flipping their own bits in the same word.
            Interlocked.And(ref mask, ~bit);
        }
    }
}
