using System;

namespace NativePool;

/// <summary>How a <see cref="PooledStreamManager"/> made by <see cref="PooledStreamManager.Create(PooledStreamManagerOptions)"/> is shaped.</summary>
/// <remarks>
/// The shared options (stripes, <see cref="StripedPoolOptions.ItemsPerStripe"/>, and through <see cref="PoolOptions"/>
/// trimming, the clock and the name) and their rules are <see cref="StripedPoolOptions"/>'s. The streams' blocks and large buffers are pinned byte arrays of
/// the engine's power-of-two size classes, kept in one array pool of the manager; its retention is bounded per size
/// class by <see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/> and trimmed like every pool's.
/// <see cref="PoolOptions.Name"/> defaults to <c>PooledStreamManager</c>.
/// </remarks>
public sealed class PooledStreamManagerOptions : StripedPoolOptions
{
    /// <summary>The default of <see cref="BlockSize"/>: 128 KiB.</summary>
    public const int DefaultBlockSize = 128 * 1024;

    /// <summary>The default of <see cref="MaximumBufferSize"/>: 128 MiB.</summary>
    public const int DefaultMaximumBufferSize = 128 * 1024 * 1024;

    /// <summary>The default of <see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/>: 64 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 64L * 1024 * 1024;

    /// <summary>Creates the options with every default.</summary>
    public PooledStreamManagerOptions()
        : base(DefaultMaximumRetainedBytesPerSizeClass)
    {
    }

    /// <summary>The bytes of one block a stream's contents are stored in: a power of two from 1 KiB to 64 MiB. Default 128 KiB.</summary>
    public int BlockSize { get; set; } = DefaultBlockSize;

    /// <summary>
    /// The largest buffer kept in the pool, in bytes: a power of two from <see cref="BlockSize"/> to 1 GiB. A stream whose
    /// contiguous buffer (<see cref="PooledStream.GetBuffer"/>) would be longer gets an exact-size array that is dropped
    /// when the stream is disposed. Default 128 MiB.
    /// </summary>
    public int MaximumBufferSize { get; set; } = DefaultMaximumBufferSize;

    /// <summary>
    /// The most bytes one stream may hold, or 0 for no limit but the structural one (the block list is one array, so
    /// <see cref="BlockSize"/> × <see cref="Array.MaxLength"/>). A write, <c>SetLength</c> or <c>Capacity</c> that would
    /// need more throws <see cref="System.IO.IOException"/> and raises the <c>StreamOverCapacity</c> event. Not negative.
    /// Default 0.
    /// </summary>
    public long MaximumStreamCapacity { get; set; }

    /// <summary>
    /// Make <see cref="PooledStream.ToArray"/> throw <see cref="NotSupportedException"/>, to find the calls that copy a
    /// pooled stream into an unpooled array. Default false.
    /// </summary>
    public bool ThrowExceptionOnToArray { get; set; }

    /// <summary>
    /// Zero the bytes a stream wrote before its buffers go back to the pool, so no stream's contents outlive it in
    /// memory. Costs a pass over the written bytes per dispose. Default false.
    /// </summary>
    public bool ZeroOnReturn { get; set; }

    /// <summary>
    /// Guarded mode: remember the stack that created each stream, treat a second <c>Dispose</c> of a stream as misuse
    /// (handled per <see cref="MisusePolicy"/>), and guard the buffers as a guarded <see cref="StripedArrayPool{T}"/>
    /// does. A debugging aid (a lock and a stack trace per stream). The AppContext switch <c>NativePool.Guarded</c> or
    /// <c>NATIVEPOOL_GUARDED=1</c> turns it on for every manager of the process. Default false.
    /// </summary>
    public bool Guarded { get; set; }

    /// <summary>
    /// Remember the stack that created each stream until it is disposed, so <see cref="PooledStreamManager.GetLeaks"/>
    /// can say where the streams never disposed were created. Costs a stack trace per stream. Default false.
    /// </summary>
    public bool TrackLeaks { get; set; }

    /// <summary>
    /// What a guarded manager does when it detects misuse (a stream disposed twice, a buffer misused). Default
    /// <see cref="PoolMisusePolicy.Throw"/>. A value the enum does not define is out of range.
    /// </summary>
    public PoolMisusePolicy MisusePolicy { get; set; }

    /// <summary>Receives each misuse when the policy is <see cref="PoolMisusePolicy.Report"/>; null to ignore reports.</summary>
    public Action<PoolMisuse>? OnMisuse { get; set; }

    /// <inheritdoc/>
    private protected override void ValidateSizeClassOptions()
    {
        if (BlockSize is < 1024 or > 64 * 1024 * 1024 || (BlockSize & (BlockSize - 1)) != 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(BlockSize), "BlockSize must be a power of two from 1 KiB to 64 MiB.");
        }

        if (MaximumBufferSize < BlockSize || MaximumBufferSize > SizeClasses.MaximumLength || (MaximumBufferSize & (MaximumBufferSize - 1)) != 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumBufferSize), "MaximumBufferSize must be a power of two from BlockSize to 1 GiB.");
        }

        if (MaximumStreamCapacity < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumStreamCapacity), "MaximumStreamCapacity must be 0 (no limit) or positive.");
        }

        MisuseReporter.ValidatePolicy(MisusePolicy, nameof(MisusePolicy));
    }

    /// <summary>The options of the manager's array pool: these options' shared ones, guarded as the manager is.</summary>
    internal StripedArrayPoolOptions ToArrayPoolOptions(string name, bool guarded) => new()
    {
        ItemsPerStripe = ItemsPerStripe,
        MaximumRetainedBytesPerSizeClass = MaximumRetainedBytesPerSizeClass,
        StripeCount = StripeCount,
        TrimmingEnabled = TrimmingEnabled,
        TrimInterval = TrimInterval,
        TrimAge = TrimAge,
        TimeProvider = TimeProvider,
        PressureSource = PressureSource,
        Name = name,
        MaximumArrayLength = MaximumBufferSize,
        Guarded = guarded,
        TrackLeaks = TrackLeaks,
        MisusePolicy = MisusePolicy,
        OnMisuse = OnMisuse,
        WithoutThreadTier = true,
    };
}
