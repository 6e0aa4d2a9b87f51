using System;

namespace NativePool;

/// <summary>How a <see cref="StripedArrayPool{T}"/> made by <see cref="StripedArrayPool{T}.Create(StripedArrayPoolOptions)"/> is shaped.</summary>
/// <remarks>
/// The pool copies and validates the values when it is created; changing the options afterwards has no effect.
/// A bad value makes <c>Create</c> throw an <see cref="ArgumentOutOfRangeException"/> whose
/// <see cref="ArgumentException.ParamName"/> is the option's name.
/// </remarks>
public sealed class StripedArrayPoolOptions
{
    /// <summary>The default of <see cref="MaximumRetainedBytesPerSizeClass"/>: 64 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 64L * 1024 * 1024;

    /// <summary>
    /// The largest array length, in elements, the pool keeps. Rounded up to a power of two; 16 to 2^30
    /// (1 073 741 824, the default). Longer requests are allocated at their exact length and dropped on return.
    /// </summary>
    public int MaximumArrayLength { get; set; } = 1 << 30;

    /// <summary>
    /// Arrays one stripe keeps per size class, 1 to 65 536; 0 (the default) means <c>max(32, 1024 / stripes)</c>, so
    /// together the stripes can absorb a burst of 1 024 same-size arrays. Bounded further by
    /// <see cref="MaximumRetainedBytesPerSizeClass"/>.
    /// </summary>
    /// <remarks>
    /// The one rule for "default" in these options: 0 means the default wherever a count or a length would otherwise
    /// have to be positive (<see cref="ArraysPerStripe"/>, <see cref="StripeCount"/>). The BCL-shaped
    /// <see cref="StripedArrayPool{T}.Create(int, int)"/> does not follow it: like <see cref="System.Buffers.ArrayPool{T}.Create(int, int)"/>
    /// it throws <see cref="ArgumentOutOfRangeException"/> for a <c>maxArraysPerBucket</c> of 0, so code moved from the
    /// BCL never gets the default silently.
    /// </remarks>
    public int ArraysPerStripe { get; set; }

    /// <summary>
    /// The byte budget of one size class across all stripes, at least 1. A class keeps at most
    /// <c>max(1, budget / (stripes × array bytes))</c> arrays per stripe. Default 64 MiB.
    /// </summary>
    public long MaximumRetainedBytesPerSizeClass { get; set; } = DefaultMaximumRetainedBytesPerSizeClass;

    /// <summary>
    /// Stripes per size class: a power of two from 1 to 64; 0 (the default) means the processor count rounded up to a
    /// power of two (at most 64).
    /// </summary>
    public int StripeCount { get; set; }

    /// <summary>Whether idle arrays are released after gen-2 GCs, on a timer and under memory pressure. Default true.</summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>The idle timer's period; 1 ms to 1 day. Default 30 seconds.</summary>
    public TimeSpan TrimInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long arrays stay untouched before trimming releases them (half of a stripe per period); 0 to 1 day. A quarter
    /// of it applies under medium memory pressure; under high pressure everything is released. Default 60 seconds.
    /// </summary>
    public TimeSpan TrimAge { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>Clear every array when it is returned, whatever <c>clearArray</c> says. Default false.</summary>
    public bool ClearOnReturn { get; set; }

    /// <summary>
    /// Clear arrays whose elements hold references (<c>object</c>, classes, structs with references) whenever the pool
    /// keeps them, so a pooled array never keeps objects alive. Default false, as in <see cref="System.Buffers.ArrayPool{T}"/>:
    /// only <c>clearArray: true</c> clears. Turning it on costs one pass over the array per return (O(length)) and frees
    /// the caller from remembering <c>clearArray: true</c>; leaving it off keeps objects referenced by pooled arrays alive
    /// until the array is rented and overwritten, or trimmed. No effect for unmanaged element types.
    /// </summary>
    public bool ClearReferencesOnReturn { get; set; }

    /// <summary>
    /// The pool's name in events and metrics (the <c>pool.name</c> tag). Null (the default) means
    /// <c>StripedArrayPool&lt;T&gt;</c> with the element type's name, e.g. <c>StripedArrayPool&lt;Byte&gt;</c>.
    /// </summary>
    public string? Name { get; set; }

    /// <summary>
    /// Guarded mode: track every rented array and detect double returns, returns of arrays this pool never handed out,
    /// and (for unmanaged elements, by filling returned arrays with a poison pattern checked on the next rent) writes
    /// after return; each is handled per <see cref="MisusePolicy"/>. A debugging aid: every rent and return takes a
    /// lock and touches the whole array. The AppContext switch <c>NativePool.Guarded</c> or the environment variable
    /// <c>NATIVEPOOL_GUARDED=1</c> turns it on for every pool of the process. Default false.
    /// </summary>
    public bool Guarded { get; set; }

    /// <summary>
    /// Remember the stack that rented each array until it is returned, so <see cref="StripedArrayPool{T}.GetLeaks"/>
    /// can say where the arrays still out were rented. Works in Release builds; costs a stack trace per rent. Default false.
    /// </summary>
    public bool TrackLeaks { get; set; }

    /// <summary>What a guarded pool does when it detects misuse. Default <see cref="PoolMisusePolicy.Throw"/>.</summary>
    public PoolMisusePolicy MisusePolicy { get; set; }

    /// <summary>
    /// What an unguarded pool does when it sees a double return (it sees those where the array is still the calling
    /// thread's or the stripe's most recent). Default <see cref="PoolMisusePolicy.Throw"/>; either way the array is kept once.
    /// </summary>
    public PoolMisusePolicy DoubleReturnPolicy { get; set; }

    /// <summary>Receives each misuse when the policy is <see cref="PoolMisusePolicy.Report"/>; null to ignore reports.</summary>
    public Action<PoolMisuse>? OnMisuse { get; set; }

    /// <summary>The trim clock; tests inject their own. Null means <see cref="TimeProvider.System"/>.</summary>
    internal TimeProvider? TimeProvider { get; set; }

    /// <summary>The memory-pressure source; tests inject their own. Null means the GC's.</summary>
    internal Func<MemoryPressure>? PressureSource { get; set; }
}
