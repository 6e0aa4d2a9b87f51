using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// How the engine allocates arrays: unmanaged elements pinned, uninitialized and placed with their data on a cache-line
/// boundary; reference-holding ones ordinarily.
/// </summary>
/// <remarks>
/// <para>
/// <b>Why placement.</b> Arrays the pool creates on the pinned object heap never move, so the distance between any two
/// of them, modulo the 4 KiB page, is fixed for the life of the process. Left to the heap, pinned arrays allocated one
/// after another sit 24 bytes further into their page than the one before (the array header), and some processors copy
/// between two buffers at such a distance many times slower than at a multiple of 64 (glibc copies from a few KiB up
/// with <c>rep movsb</c>, whose speed on some AMD EPYC parts depends on that distance). Every pinned array of at least
/// <see cref="PinnedArrayPlacement.MinimumPlacedBytes"/> bytes therefore starts its data on a 64-byte boundary, which
/// makes the distance between any two pooled buffers (arrays and native blocks alike) a multiple of 64.
/// </para>
/// <para>
/// <b>Cost.</b> Only a pool miss allocates; placement adds a probe and a filler (under 128 bytes together) that become
/// garbage at once, plus one lock held across those allocations (the runtime takes its own lock for every pinned
/// allocation anyway). Where the heap defeats an attempt, that attempt's array becomes garbage too (at most
/// <see cref="PinnedArrayPlacement.MaximumAttempts"/> − 1 of them). <see cref="PinnedArrayPlacement"/> says how.
/// </para>
/// </remarks>
internal static class PinnedArray<T>
{
    /// <summary>Whether arrays of <typeparamref name="T"/> go on the pinned object heap (no references inside).</summary>
    public static bool IsPinned => !RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    /// <summary>Allocates an array of exactly <paramref name="length"/> elements.</summary>
    /// <remarks>
    /// Arrays of unmanaged elements are allocated on the pinned object heap, never move, and are not zeroed (callers of
    /// a pool must not rely on contents, as with <see cref="System.Buffers.ArrayPool{T}"/>). Arrays holding references
    /// are ordinary (zeroed) arrays; the pool clears them on return only when asked (<c>clearArray</c>, or the pool's
    /// clearing options), as the BCL's pools do.
    /// </remarks>
    public static T[] Allocate(int length) =>
        IsPinned ? PinnedArrayPlacement.Allocate<T>(length, zeroed: false) : new T[length];

    /// <summary>Allocates a zeroed array of exactly <paramref name="length"/> elements (pinned for unmanaged elements).</summary>
    /// <remarks>
    /// Independent pools hand out zeroed new arrays, as the runtime's <c>ArrayPool.Create()</c> does: an uninitialized
    /// array may show memory another component freed a moment ago.
    /// </remarks>
    public static T[] AllocateZeroed(int length) =>
        IsPinned ? PinnedArrayPlacement.Allocate<T>(length, zeroed: true) : new T[length];
}
