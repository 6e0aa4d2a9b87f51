using System;
using System.Numerics;

namespace NativePool;

/// <summary>How a <see cref="NativeBlockPool"/> or a <see cref="NativeStructPool{T}"/> is shaped.</summary>
/// <remarks>
/// The shared options (stripes, <see cref="StripedPoolOptions.ItemsPerStripe"/>, the byte budget, trimming, the clock,
/// the name) and their rules are <see cref="StripedPoolOptions"/>'s. Here the byte budget defaults to 16 MiB, blocks
/// returned past it are freed, and <see cref="PoolOptions.Name"/> defaults to the pool type's name, e.g.
/// <c>NativeBlockPool</c> or <c>NativeStructPool&lt;Int32&gt;</c>.
/// </remarks>
public sealed class NativeBlockPoolOptions : StripedPoolOptions
{
    /// <summary>The smallest (and default) <see cref="Alignment"/>: one cache line as NativePool pads it, 128 bytes.</summary>
    public const int MinimumAlignment = CacheLine.Size;

    /// <summary>The largest <see cref="Alignment"/>: 2 MiB (a huge page).</summary>
    public const int MaximumAlignment = 1 << 21;

    /// <summary>The default of <see cref="MaximumBlockSize"/>: 1 MiB.</summary>
    public const int DefaultMaximumBlockSize = 1 << 20;

    /// <summary>The default of <see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/>: 16 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 16L * 1024 * 1024;

    /// <summary>Creates the options with every default.</summary>
    public NativeBlockPoolOptions()
        : base(DefaultMaximumRetainedBytesPerSizeClass)
    {
    }

    /// <summary>The alignment of every block's address, in bytes: a power of two from 128 (the default; whole cache lines, so two blocks never share one) to 2 MiB.</summary>
    public int Alignment { get; set; } = MinimumAlignment;

    /// <summary>The largest block the pool keeps, in bytes, rounded up to a power of two: 128 to 2^30, default 1 MiB. Larger requests are allocated exactly and freed when their lease ends.</summary>
    public int MaximumBlockSize { get; set; } = DefaultMaximumBlockSize;

    /// <summary>
    /// How many threads may keep one block per size class parked in their own slot (the fast path with no interlocked
    /// operation on rent): 0 to 65 536, or -1 for every thread. Default 4 × the processor count. Parked blocks are
    /// outside the byte budget and are not trimmed (only their own thread takes from them while the pool is open);
    /// <c>Dispose</c> frees them with the rest, each exactly once, and a dead thread's are freed with its cache.
    /// </summary>
    public int MaximumCachingThreads { get; set; } = 4 * Environment.ProcessorCount;

    /// <inheritdoc/>
    private protected override void ValidateSizeClassOptions()
    {
        if (Alignment is < MinimumAlignment or > MaximumAlignment || !BitOperations.IsPow2(Alignment))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(Alignment), "Alignment must be a power of two from 128 bytes to 2 MiB.");
        }

        if (MaximumBlockSize is < NativeSizeClasses.MinimumBlockSize or > NativeSizeClasses.MaximumBlockSize)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumBlockSize), "MaximumBlockSize must be from 128 bytes to 2^30 bytes.");
        }

        if (MaximumCachingThreads is < -1 or > 65_536)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumCachingThreads), "MaximumCachingThreads must be from 0 to 65 536, or -1 for every thread.");
        }
    }
}
