using System;

namespace NativePool;

/// <summary>
/// The options every striped pool of size classes shares: stripes, per-stripe capacity, the byte budget of a size
/// class, trimming, the trim clock and the pool's name. <see cref="StripedArrayPoolOptions"/>,
/// <see cref="StripedMemoryPoolOptions"/> and <see cref="NativeBlockPoolOptions"/> add what is their own.
/// </summary>
/// <remarks>
/// <para>
/// The pool copies and validates the values when it is created; changing the options afterwards has no effect.
/// A bad value makes <c>Create</c> throw an <see cref="ArgumentOutOfRangeException"/> whose
/// <see cref="ArgumentException.ParamName"/> is the option's name.
/// </para>
/// <para>
/// The one rule for "default" in these options: 0 means the default wherever a count or a length would otherwise have
/// to be positive (<see cref="ItemsPerStripe"/>, <see cref="StripeCount"/>, and the pools' own counts).
/// </para>
/// </remarks>
public abstract class StripedPoolOptions
{
    /// <summary>The largest <see cref="ItemsPerStripe"/>.</summary>
    private const int MaximumItemsPerStripe = 65_536;

    /// <summary>Sets the byte budget's default, which differs between managed and native pools.</summary>
    /// <param name="defaultMaximumRetainedBytesPerSizeClass">The default of <see cref="MaximumRetainedBytesPerSizeClass"/>.</param>
    private protected StripedPoolOptions(long defaultMaximumRetainedBytesPerSizeClass) =>
        MaximumRetainedBytesPerSizeClass = defaultMaximumRetainedBytesPerSizeClass;

    /// <summary>
    /// Items (arrays, buffers or blocks) one stripe keeps per size class, 1 to 65 536; 0 (the default) means
    /// <c>max(32, 1024 / stripes)</c>, so together the stripes can absorb a burst of 1 024 same-size items. Bounded
    /// further by <see cref="MaximumRetainedBytesPerSizeClass"/>.
    /// </summary>
    public int ItemsPerStripe { get; set; }

    /// <summary>
    /// The byte budget of one size class across all stripes, at least 1. A class keeps at most
    /// <c>max(1, budget / (stripes × item bytes))</c> items per stripe; items returned past it are dropped (native
    /// blocks are freed). The default is the derived options' <c>DefaultMaximumRetainedBytesPerSizeClass</c>.
    /// </summary>
    public long MaximumRetainedBytesPerSizeClass { get; set; }

    /// <summary>
    /// Stripes per size class: a power of two from 1 to 64; 0 (the default) means the processor count rounded up to a
    /// power of two (at most 64).
    /// </summary>
    public int StripeCount { get; set; }

    /// <summary>Whether idle items are released after gen-2 GCs, on a timer and under memory pressure. Default true.</summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>The idle timer's period; 1 ms to 1 day. Default 30 seconds.</summary>
    public TimeSpan TrimInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long items stay untouched before trimming releases them (half of a stripe per period); 0 to 1 day. A quarter
    /// of it applies under medium memory pressure; under high pressure everything is released. Default 60 seconds.
    /// </summary>
    public TimeSpan TrimAge { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// The trim clock: the idle timer runs on it and item ages are read from it. Null (the default) means
    /// <see cref="TimeProvider.System"/>; tests inject their own (a manual clock makes trimming deterministic).
    /// </summary>
    public TimeProvider? TimeProvider { get; set; }

    /// <summary>The pool's name in events and metrics (the <c>nativepool.pool.name</c> tag). Null (the default) means the pool's type name.</summary>
    public string? Name { get; set; }

    /// <summary>The memory-pressure source; tests inject their own. Null means the GC's.</summary>
    internal Func<MemoryPressure>? PressureSource { get; set; }

    /// <summary>Checks every option: the shared ones, then the pool's own.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    internal void Validate()
    {
        ValidateOwnOptions();

        if (ItemsPerStripe is < 0 or > MaximumItemsPerStripe)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(ItemsPerStripe), "ItemsPerStripe must be from 1 to 65 536, or 0 for the default.");
        }

        if (MaximumRetainedBytesPerSizeClass < 1)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumRetainedBytesPerSizeClass), "MaximumRetainedBytesPerSizeClass must be at least 1 byte.");
        }

        if (StripeCount is < 0 or > 64 || (StripeCount & (StripeCount - 1)) != 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(StripeCount), "StripeCount must be a power of two from 1 to 64, or 0 for the default.");
        }

        if (TrimInterval < TimeSpan.FromMilliseconds(1) || TrimInterval > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(TrimInterval), "TrimInterval must be from 1 ms to 1 day.");
        }

        if (TrimAge < TimeSpan.Zero || TrimAge > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(TrimAge), "TrimAge must be from 0 to 1 day.");
        }
    }

    /// <summary>The engine's settings for <paramref name="classCount"/> size classes shaped by these (validated) options.</summary>
    /// <param name="classCount">The number of size classes.</param>
    /// <param name="itemBytes">The bytes one item of a class holds.</param>
    /// <param name="sideEffectingDiscard">Whether discarding an item frees native memory (no magazines).</param>
    /// <param name="threadSlotTokens">How many threads may park items in their slots; -1 for every thread.</param>
    internal StripedPoolSettings ToSettings(int classCount, Func<int, long> itemBytes, bool sideEffectingDiscard = false, int threadSlotTokens = -1) =>
        StripedPoolSettings.ForSizeClasses(
            classCount,
            itemBytes,
            StripeCount,
            ItemsPerStripe,
            MaximumRetainedBytesPerSizeClass,
            TrimmingEnabled,
            TrimInterval,
            TrimAge,
            TimeProvider,
            PressureSource,
            sideEffectingDiscard,
            threadSlotTokens);

    /// <summary>Checks the options the derived pool adds.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    private protected abstract void ValidateOwnOptions();
}
