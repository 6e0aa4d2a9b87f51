using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>How the engine allocates arrays: unmanaged elements pinned, uninitialized and placed with their data on a cache-line boundary; reference-holding ones ordinarily.</summary>
/// <remarks>
/// A pinned array of at least <see cref="PinnedArrayPlacement.MinimumPlacedBytes"/> bytes is placed so that its data
/// starts on a 64-byte boundary where the heap allows, so the distance between pooled buffers (native blocks included)
/// is a multiple of 64, where <c>rep movsb</c> copies run at full speed on every processor: why, when the heap does not
/// allow it and at what cost is in docs/design.md, "Where a pooled array sits"; how, in <see cref="PinnedArrayPlacement"/>.
/// </remarks>
internal static class PinnedArray<T>
{
    /// <summary>Whether arrays of <typeparamref name="T"/> go on the pinned object heap (no references inside).</summary>
    public static bool IsPinned => !RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    /// <summary>Allocates an array of exactly <paramref name="length"/> elements: pinned and not zeroed for unmanaged elements, ordinary otherwise.</summary>
    /// <remarks>Callers of a pool must not rely on contents, as with <see cref="System.Buffers.ArrayPool{T}"/>; reference arrays are cleared on return only when asked, as the BCL's pools do.</remarks>
    public static T[] Allocate(int length) =>
        IsPinned ? PinnedArrayPlacement.Allocate<T>(length, zeroed: false) : new T[length];

    /// <summary>Allocates a zeroed array of exactly <paramref name="length"/> elements (pinned for unmanaged elements).</summary>
    /// <remarks>For independent pools, as the runtime's <c>ArrayPool.Create()</c>: an uninitialized array may show memory another component just freed.</remarks>
    public static T[] AllocateZeroed(int length) =>
        IsPinned ? PinnedArrayPlacement.Allocate<T>(length, zeroed: true) : new T[length];
}
