using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Power-of-two size classes for arrays: class <c>i</c> holds arrays of exactly <c>16 &lt;&lt; i</c> elements; and the one class table behind them and <see cref="NativeSizeClasses"/>, whose classes start at <c>1 &lt;&lt; minimumShift</c>.</summary>
internal static class SizeClasses
{
    /// <summary>The smallest class length, in elements.</summary>
    public const int MinimumLength = 16;

    /// <summary>The largest class length, in elements (2^30).</summary>
    public const int MaximumLength = 1 << 30;

    /// <summary>The number of classes from <see cref="MinimumLength"/> to <see cref="MaximumLength"/> (27).</summary>
    public const int Count = 27;

    /// <summary>The base-2 logarithm of <see cref="MinimumLength"/>.</summary>
    public const int MinimumShift = 4;

    /// <summary>The class that serves a request of <paramref name="length"/> elements (1 ≤ length ≤ 2^30).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetIndex(int length) => GetIndex(length, MinimumShift);

    /// <summary>The exact array length of class <paramref name="index"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetLength(int index) => GetSize(index, MinimumShift);

    /// <summary>The class that serves <paramref name="size"/> units (1 ≤ size ≤ 2^30) when the smallest holds <c>1 &lt;&lt; minimumShift</c>.</summary>
    /// <remarks>Callers pass a constant shift, so the inlined arithmetic folds to what a hand-written table would do.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetIndex(int size, int minimumShift) =>
        BitOperations.Log2((uint)(size - 1) | ((1u << minimumShift) - 1)) + 1 - minimumShift;

    /// <summary>The exact size of class <paramref name="index"/>, in units, when the smallest holds <c>1 &lt;&lt; minimumShift</c>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetSize(int index, int minimumShift) => (1 << minimumShift) << index;
}
