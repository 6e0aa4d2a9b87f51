using System;

namespace NativePool;

/// <summary>How a <see cref="StripedArrayPool{T}"/> made by <see cref="StripedArrayPool{T}.Create(StripedArrayPoolOptions)"/> is shaped.</summary>
/// <remarks>
/// The shared options (stripes, <see cref="StripedPoolOptions.ItemsPerStripe"/>, the byte budget, trimming, the clock,
/// the name) and their rules are <see cref="StripedPoolOptions"/>'s; <see cref="PoolOptions.Name"/> defaults to
/// <c>StripedArrayPool&lt;T&gt;</c> with the element type's name, e.g. <c>StripedArrayPool&lt;Byte&gt;</c>. The
/// BCL-shaped <see cref="StripedArrayPool{T}.Create(int, int)"/> does not follow the "0 means the default" rule: like
/// <see cref="System.Buffers.ArrayPool{T}.Create(int, int)"/> it throws <see cref="ArgumentOutOfRangeException"/> for a
/// <c>maxArraysPerBucket</c> of 0, so code moved from the BCL never gets the default silently.
/// </remarks>
public sealed class StripedArrayPoolOptions : StripedPoolOptions
{
    /// <summary>The default of <see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/>: 64 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 64L * 1024 * 1024;

    /// <summary>Creates the options with every default.</summary>
    public StripedArrayPoolOptions()
        : base(DefaultMaximumRetainedBytesPerSizeClass)
    {
    }

    /// <summary>The largest array length the pool keeps, rounded up to a power of two: 16 to 2^30 (the default). Longer requests are allocated exactly and dropped on return.</summary>
    public int MaximumArrayLength { get; set; } = 1 << 30;

    /// <summary>Clear every array when it is returned, whatever <c>clearArray</c> says. Default false.</summary>
    public bool ClearOnReturn { get; set; }

    /// <summary>
    /// Clear arrays whose elements hold references whenever the pool keeps them, so a pooled array never keeps objects
    /// alive, at one pass per return; no effect for unmanaged elements. Default false: as in <see cref="System.Buffers.ArrayPool{T}"/>, only <c>clearArray: true</c> clears.
    /// </summary>
    public bool ClearReferencesOnReturn { get; set; }

    /// <summary>
    /// Guarded mode, a debugging aid (every rent and return takes a lock and touches the whole array): detect double
    /// returns while the array is in the pool, returns of arrays this pool never handed out, and (unmanaged elements, by a
    /// poison pattern checked on the next rent) writes after return, each handled per <see cref="MisusePolicy"/>. The
    /// AppContext switch <c>NativePool.Guarded</c> or <c>NATIVEPOOL_GUARDED=1</c> turns it on process-wide. Default false.
    /// </summary>
    public bool Guarded { get; set; }

    /// <summary>No thread slot or magazine: every rent and return goes to the stripes (a stream manager's pool, kind <c>stream</c>).</summary>
    /// <remarks>Its blocks are rented once per block written, so a thread tier would save nothing and strand blocks in idle threads. Not a user option.</remarks>
    internal bool WithoutThreadTier { get; set; }

    /// <summary>
    /// Remember the stack that rented each array until it is returned, for <see cref="StripedArrayPool{T}.GetLeaks"/>, the
    /// only report of leaks (the pool holds each outstanding array, so one never returned is never collected). Works in
    /// Release builds; costs a stack trace per rent. Default false.
    /// </summary>
    public bool TrackLeaks { get; set; }

    /// <summary>What a guarded pool does when it detects misuse. Default <see cref="PoolMisusePolicy.Throw"/>; an undefined value is out of range, guarded or not.</summary>
    public PoolMisusePolicy MisusePolicy { get; set; }

    /// <summary>
    /// What an unguarded pool does when it sees a double return (the array is still the thread's or the stripe's most
    /// recent); the array is kept once. Default <see cref="PoolMisusePolicy.Throw"/>; an undefined value is out of range.
    /// <see cref="StripedArrayPool{T}.Shared"/> takes its policy from a process-wide setting instead (see there).
    /// </summary>
    public PoolMisusePolicy DoubleReturnPolicy { get; set; }

    /// <summary>Receives each misuse when the policy is <see cref="PoolMisusePolicy.Report"/>; null to ignore reports.</summary>
    public Action<PoolMisuse>? OnMisuse { get; set; }

    /// <inheritdoc/>
    private protected override void ValidateSizeClassOptions()
    {
        if (MaximumArrayLength is < SizeClasses.MinimumLength or > SizeClasses.MaximumLength)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(MaximumArrayLength), "MaximumArrayLength must be from 16 to 2^30 elements.");
        }

        MisuseReporter.ValidatePolicy(MisusePolicy, nameof(MisusePolicy));
        MisuseReporter.ValidatePolicy(DoubleReturnPolicy, nameof(DoubleReturnPolicy));
    }
}
