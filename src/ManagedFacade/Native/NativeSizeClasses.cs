using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Power-of-two byte classes for native blocks: class <c>i</c> holds blocks of exactly <c>128 &lt;&lt; i</c> bytes, so every block covers whole cache lines and no two blocks ever share one (<see cref="SizeClasses"/>' table from 128).</summary>
internal static class NativeSizeClasses
{
    /// <summary>The smallest block, in bytes: one <see cref="CacheLine.Size"/>.</summary>
    public const int MinimumBlockSize = CacheLine.Size;

    /// <summary>The largest pooled block, in bytes (2^30).</summary>
    public const int MaximumBlockSize = 1 << 30;

    /// <summary>The base-2 logarithm of <see cref="MinimumBlockSize"/>.</summary>
    public const int MinimumShift = 7;

    /// <summary>The class that serves a request of <paramref name="byteLength"/> bytes (1 ≤ byteLength ≤ 2^30).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetIndex(int byteLength) => SizeClasses.GetIndex(byteLength, MinimumShift);

    /// <summary>The exact block size of class <paramref name="index"/>, in bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int GetSize(int index) => SizeClasses.GetSize(index, MinimumShift);
}
