using System;

namespace NativePool;

/// <summary>
/// The options every striped pool of size classes shares: stripes, per-stripe capacity and the byte budget of a size
/// class, besides what every pool's options have (<see cref="PoolOptions"/>: the name, trimming and the trim clock).
/// <see cref="StripedArrayPoolOptions"/>, <see cref="StripedMemoryPoolOptions"/> and <see cref="NativeBlockPoolOptions"/>
/// add what is their own.
/// </summary>
/// <remarks>
/// <para>
/// The one rule for "default" in these options: 0 means the default wherever a count or a length would otherwise have
/// to be positive (<see cref="ItemsPerStripe"/>, <see cref="StripeCount"/>, and the pools' own counts).
/// </para>
/// </remarks>
public abstract class StripedPoolOptions : PoolOptions
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

    /// <inheritdoc/>
    private protected sealed override void ValidateOwnOptions()
    {
        ValidateSizeClassOptions();

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
    }

    /// <summary>The engine's settings for <paramref name="classCount"/> classes shaped by these options (validated first): each class keeps
    /// <c>clamp(budget / (stripes × item bytes), 1, itemsPerStripe)</c> items per stripe, the one budget rule.</summary>
    /// <remarks>A <paramref name="sideEffectingDiscard"/> (native memory is freed) means no magazines.</remarks>
    internal StripedPoolSettings ToSettings(int classCount, Func<int, long> itemBytes, string kind, string name, bool sideEffectingDiscard = false, int threadSlotTokens = -1)
    {
        int stripes = StripeCount == 0 ? StripedPoolSettings.DefaultStripeCount : StripeCount;
        int perStripe = ItemsPerStripe == 0 ? Math.Max(32, 1024 / stripes) : ItemsPerStripe;
        var capacity = new int[classCount];
        var bytes = new long[classCount];
        int[]? magazine = sideEffectingDiscard ? null : new int[classCount];
        for (int c = 0; c < classCount; c++)
        {
            bytes[c] = itemBytes(c);
            capacity[c] = (int)Math.Clamp(MaximumRetainedBytesPerSizeClass / (stripes * Math.Max(1, bytes[c])), 1, perStripe);
            if (magazine is not null)
            {
                magazine[c] = StripedPoolSettings.MagazineCapacityFor(bytes[c]);
            }
        }

        return new StripedPoolSettings
        {
            Kind = kind,
            Name = name,
            ClassCount = classCount,
            CapacityPerStripe = capacity,
            ItemBytes = bytes,
            MagazineCapacity = magazine,
            StripeCount = stripes,
            ThreadSlotTokens = threadSlotTokens,
            ColdThreadStart = true,
            TrimmingEnabled = TrimmingEnabled,
            TrimInterval = TrimInterval,
            TrimAge = TrimAge,
            Clock = TimeProvider ?? System.TimeProvider.System,
            Pressure = PressureSource ?? GCMemoryPressure.Read,
        };
    }

    /// <summary>Checks the options the derived pool adds.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    private protected abstract void ValidateSizeClassOptions();
}
