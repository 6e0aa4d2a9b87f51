using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>How the engine allocates arrays: unmanaged elements pinned and uninitialized, reference-holding ones ordinarily.</summary>
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
        IsPinned ? GC.AllocateUninitializedArray<T>(length, pinned: true) : new T[length];

    /// <summary>Allocates a zeroed array of exactly <paramref name="length"/> elements (pinned for unmanaged elements).</summary>
    /// <remarks>
    /// Independent pools hand out zeroed new arrays, as the runtime's <c>ArrayPool.Create()</c> does: an uninitialized
    /// array may show memory another component freed a moment ago.
    /// </remarks>
    public static T[] AllocateZeroed(int length) =>
        IsPinned ? GC.AllocateArray<T>(length, pinned: true) : new T[length];
}
