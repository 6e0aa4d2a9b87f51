using System;

namespace NativePool;

/// <summary>How a <see cref="PooledStreamManager"/> made by <see cref="PooledStreamManager.Create(PooledStreamManagerOptions)"/> is shaped.</summary>
/// <remarks>The options inherited from <see cref="StripedPoolOptions"/> shape the manager's one array pool of blocks and buffers. <see cref="PoolOptions.Name"/> defaults to <c>PooledStreamManager</c>.</remarks>
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

    /// <summary>The largest buffer kept in the pool, in bytes: a power of two from <see cref="BlockSize"/> to 1 GiB (a longer one is exact and dropped on dispose). Default 128 MiB.</summary>
    public int MaximumBufferSize { get; set; } = DefaultMaximumBufferSize;

    /// <summary>The most bytes one stream may hold (more throws <see cref="System.IO.IOException"/>), or 0 (the default) for <see cref="BlockSize"/> × <see cref="Array.MaxLength"/>. Not negative.</summary>
    public long MaximumStreamCapacity { get; set; }

    /// <summary>Make <see cref="PooledStream.ToArray"/> throw <see cref="NotSupportedException"/>, to find the calls that copy a stream into an unpooled array.</summary>
    public bool ThrowExceptionOnToArray { get; set; }

    /// <summary>Zero the bytes a stream wrote before its buffers go back to the pool, at the cost of a pass over them per dispose.</summary>
    public bool ZeroOnReturn { get; set; }

    /// <summary>Guarded mode, a debugging aid: remember each stream's creation stack, treat a second <c>Dispose</c> as misuse and guard the buffers as <see cref="StripedArrayPoolOptions.Guarded"/> does (also process-wide).</summary>
    public bool Guarded { get; set; }

    /// <summary>Remember each stream's creation stack until it is disposed, for <see cref="PooledStreamManager.GetLeaks"/>.</summary>
    public bool TrackLeaks { get; set; }

    /// <summary>What a guarded manager does on misuse (a stream disposed twice, a buffer misused). Default <see cref="PoolMisusePolicy.Throw"/>.</summary>
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
