using System;

namespace NativePool;

/// <summary>How a <see cref="StripedMemoryPool{T}"/> made by <see cref="StripedMemoryPool{T}.Create(StripedMemoryPoolOptions)"/> is shaped.</summary>
/// <remarks>
/// The pool copies and validates the values when it is created; changing the options afterwards has no effect.
/// A bad value makes <c>Create</c> throw an <see cref="ArgumentOutOfRangeException"/> whose
/// <see cref="ArgumentException.ParamName"/> is the option's name.
/// </remarks>
public sealed class StripedMemoryPoolOptions
{
    /// <summary>The default of <see cref="MaximumRetainedBytesPerSizeClass"/>: 64 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 64L * 1024 * 1024;

    /// <summary>
    /// The largest buffer, in elements, the pool hands out: rounded up to a power of two, 16 to 2^30 (the default).
    /// It is the pool's <see cref="System.Buffers.MemoryPool{T}.MaxBufferSize"/>; longer rents throw.
    /// </summary>
    public int MaximumBufferLength { get; set; } = 1 << 30;

    /// <summary>
    /// The length of <c>Rent()</c> and <c>Rent(-1)</c>, in elements, 1 to <see cref="MaximumBufferLength"/>; 0 (the
    /// default) means 4 KiB worth of elements (<c>ceil(4096 / sizeof(T))</c>, as <see cref="System.Buffers.MemoryPool{T}.Shared"/>).
    /// </summary>
    public int DefaultBufferLength { get; set; }

    /// <summary>
    /// Buffers one stripe keeps per size class, 1 to 65 536; 0 (the default) means <c>max(32, 1024 / stripes)</c>.
    /// Bounded further by <see cref="MaximumRetainedBytesPerSizeClass"/>.
    /// </summary>
    public int BuffersPerStripe { get; set; }

    /// <summary>
    /// The byte budget of one size class across all stripes, at least 1. A class keeps at most
    /// <c>max(1, budget / (stripes × buffer bytes))</c> buffers per stripe. Default 64 MiB.
    /// </summary>
    public long MaximumRetainedBytesPerSizeClass { get; set; } = DefaultMaximumRetainedBytesPerSizeClass;

    /// <summary>
    /// Stripes per size class: a power of two from 1 to 64; 0 (the default) means the processor count rounded up to a
    /// power of two (at most 64).
    /// </summary>
    public int StripeCount { get; set; }

    /// <summary>Whether idle buffers are released after gen-2 GCs, on a timer and under memory pressure. Default true.</summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>The idle timer's period; 1 ms to 1 day. Default 30 seconds.</summary>
    public TimeSpan TrimInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How long buffers stay untouched before trimming releases them; 0 to 1 day. Default 60 seconds.</summary>
    public TimeSpan TrimAge { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>Clear every buffer when its owner is disposed (so no data outlives a lease). Default false.</summary>
    public bool ClearOnReturn { get; set; }

    /// <summary>
    /// Whether <c>Rent</c> hands out the pooled owner object itself. Default false: every rent gets a small owner made
    /// for it (about 32 bytes, like <see cref="System.Buffers.MemoryPool{T}.Shared"/>'s per-rent owner), so an owner kept
    /// after <c>Dispose</c> stays harmless. True makes <c>Rent</c> + <c>Dispose</c> allocate nothing, but the same object
    /// then goes to later renters: a reference kept after <c>Dispose</c> (a second, late <c>Dispose</c>, or a read of
    /// <c>Memory</c>) acts on whichever lease the object serves at that moment, and can end another renter's lease and
    /// let two renters share one buffer. Set it only where every owner is disposed exactly once and dropped at once (as
    /// System.IO.Pipelines does with its segments). <c>RentScoped</c> allocates nothing and is stale-safe either way.
    /// </summary>
    public bool ReuseOwners { get; set; }

    /// <summary>The trim clock; tests inject their own. Null means <see cref="TimeProvider.System"/>.</summary>
    internal TimeProvider? TimeProvider { get; set; }

    /// <summary>The memory-pressure source; tests inject their own. Null means the GC's.</summary>
    internal Func<MemoryPressure>? PressureSource { get; set; }

    /// <summary>
    /// The pool's name in events and metrics (the <c>pool.name</c> tag). Null (the default) means
    /// <c>StripedMemoryPool&lt;T&gt;</c> with the element type's name, e.g. <c>StripedMemoryPool&lt;Byte&gt;</c>.
    /// </summary>
    public string? Name { get; set; }
}
