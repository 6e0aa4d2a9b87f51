namespace NativePool;

/// <summary>How a <see cref="StripedMemoryPool{T}"/> made by <see cref="StripedMemoryPool{T}.Create(StripedMemoryPoolOptions)"/> is shaped.</summary>
/// <remarks>
/// The shared options (stripes, <see cref="StripedPoolOptions.ItemsPerStripe"/>, the byte budget, trimming, the clock,
/// the name) and their rules are <see cref="StripedPoolOptions"/>'s; <see cref="PoolOptions.Name"/> defaults to
/// <c>StripedMemoryPool&lt;T&gt;</c> with the element type's name, e.g. <c>StripedMemoryPool&lt;Byte&gt;</c>.
/// </remarks>
public sealed class StripedMemoryPoolOptions : StripedPoolOptions
{
    /// <summary>The default of <see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/>: 64 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 64L * 1024 * 1024;

    /// <summary>Creates the options with every default.</summary>
    public StripedMemoryPoolOptions()
        : base(DefaultMaximumRetainedBytesPerSizeClass)
    {
    }

    /// <summary>The largest buffer, in elements, the pool hands out (its <see cref="System.Buffers.MemoryPool{T}.MaxBufferSize"/>; longer rents throw): rounded up to a power of two, 16 to 2^30 (the default).</summary>
    public int MaximumBufferLength { get; set; } = 1 << 30;

    /// <summary>The length of <c>Rent()</c> and <c>Rent(-1)</c>, in elements, 1 to <see cref="MaximumBufferLength"/>; 0 (the default) means 4 KiB worth (<c>ceil(4096 / sizeof(T))</c>, as <see cref="System.Buffers.MemoryPool{T}.Shared"/>).</summary>
    public int DefaultBufferLength { get; set; }

    /// <summary>Clear every buffer when its owner is disposed (so no data outlives a lease). Default false.</summary>
    public bool ClearOnReturn { get; set; }

    /// <summary>
    /// Whether <c>Rent</c> hands out the pooled owner itself, allocating nothing, instead of a small owner per rent (see
    /// <see cref="StripedMemoryPool{T}"/>). The object then serves later renters: a reference kept after <c>Dispose</c> (a
    /// late second <c>Dispose</c>, or a read of <c>Memory</c>) acts on whichever lease it serves then, and can end another
    /// renter's lease or let two share one buffer. Set it only where every owner is disposed exactly once and dropped at
    /// once (as System.IO.Pipelines does with its segments). Default false.
    /// </summary>
    public bool ReuseOwners { get; set; }

    /// <inheritdoc/>
    private protected override void ValidateSizeClassOptions()
    {
        if (MaximumBufferLength is < SizeClasses.MinimumLength or > SizeClasses.MaximumLength)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumBufferLength), "MaximumBufferLength must be from 16 to 2^30 elements.");
        }

        int maxBufferSize = SizeClasses.GetLength(SizeClasses.GetIndex(MaximumBufferLength));
        if (DefaultBufferLength < 0 || DefaultBufferLength > maxBufferSize)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(DefaultBufferLength), "DefaultBufferLength must be from 1 to MaximumBufferLength, or 0 for 4 KiB worth.");
        }
    }
}
