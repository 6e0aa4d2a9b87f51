using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The one power-of-two class table: class <c>i</c> holds items of exactly <c>minimum &lt;&lt; i</c> units (elements
/// or bytes), where <c>minimum = 1 &lt;&lt; minimumShift</c>. <see cref="SizeClasses"/> (arrays, from 16 elements) and
/// the native pools' byte classes (from one cache line) are this table with their own minimum; callers pass a constant
/// shift, so the inlined arithmetic folds to what a hand-written table would do.
/// </summary>
internal static class PowerOfTwoClasses
{
    /// <summary>The class that serves a request of <paramref name="size"/> units (1 ≤ size ≤ 2^30).</summary>
    /// <param name="size">The request, in units.</param>
    /// <param name="minimumShift">log2 of the smallest class's size.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetIndex(int size, int minimumShift) =>
        BitOperations.Log2((uint)(size - 1) | ((1u << minimumShift) - 1)) + 1 - minimumShift;

    /// <summary>The exact size of class <paramref name="index"/>, in units.</summary>
    /// <param name="index">The class.</param>
    /// <param name="minimumShift">log2 of the smallest class's size.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetSize(int index, int minimumShift) => (1 << minimumShift) << index;
}
