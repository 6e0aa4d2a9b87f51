using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// Power-of-two size classes for arrays: class <c>i</c> holds arrays of exactly <c>16 &lt;&lt; i</c> elements
/// (<see cref="PowerOfTwoClasses"/> from 16).
/// </summary>
internal static class SizeClasses
{
    /// <summary>The smallest class length, in elements.</summary>
    public const int MinimumLength = 16;

    /// <summary>The largest class length, in elements (2^30).</summary>
    public const int MaximumLength = 1 << 30;

    /// <summary>The number of classes from <see cref="MinimumLength"/> to <see cref="MaximumLength"/> (27).</summary>
    public const int Count = 27;

    private const int MinimumShift = 4;

    /// <summary>The class that serves a request of <paramref name="length"/> elements (1 ≤ length ≤ 2^30).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetIndex(int length) => PowerOfTwoClasses.GetIndex(length, MinimumShift);

    /// <summary>The exact array length of class <paramref name="index"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetLength(int index) => PowerOfTwoClasses.GetSize(index, MinimumShift);
}
