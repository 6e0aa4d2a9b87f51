using System;

namespace NativePool;

/// <summary>How a <see cref="NativeBlockPool"/> or a <see cref="NativeStructPool{T}"/> is shaped.</summary>
/// <remarks>
/// The pool copies and validates the values when it is created; changing the options afterwards has no effect.
/// A bad value makes <c>Create</c> throw an <see cref="ArgumentOutOfRangeException"/> whose
/// <see cref="ArgumentException.ParamName"/> is the option's name.
/// </remarks>
public sealed class NativeBlockPoolOptions
{
    /// <summary>The smallest (and default) <see cref="Alignment"/>: one cache line as NativePool pads it, 128 bytes.</summary>
    public const int MinimumAlignment = CacheLine.Size;

    /// <summary>The largest <see cref="Alignment"/>: 2 MiB (a huge page).</summary>
    public const int MaximumAlignment = 1 << 21;

    /// <summary>The default of <see cref="MaximumBlockSize"/>: 1 MiB.</summary>
    public const int DefaultMaximumBlockSize = 1 << 20;

    /// <summary>The default of <see cref="MaximumRetainedBytesPerSizeClass"/>: 16 MiB.</summary>
    public const long DefaultMaximumRetainedBytesPerSizeClass = 16L * 1024 * 1024;

    /// <summary>
    /// The alignment of every block's address, in bytes: a power of two from 128 (the default; whole cache lines, so
    /// two blocks never share one) to 2 MiB.
    /// </summary>
    public int Alignment { get; set; } = MinimumAlignment;

    /// <summary>
    /// The largest block the pool keeps, in bytes: rounded up to a power of two, 128 to 2^30. Default 1 MiB. Larger
    /// requests are allocated at their exact size and freed when their lease is disposed.
    /// </summary>
    public int MaximumBlockSize { get; set; } = DefaultMaximumBlockSize;

    /// <summary>
    /// The byte budget of one size class across all stripes, at least 1. A class keeps at most
    /// <c>max(1, budget / (stripes × block bytes))</c> blocks per stripe; blocks returned past it are freed. Default 16 MiB.
    /// </summary>
    public long MaximumRetainedBytesPerSizeClass { get; set; } = DefaultMaximumRetainedBytesPerSizeClass;

    /// <summary>
    /// Blocks one stripe keeps per size class, 1 to 65 536; 0 (the default) means <c>max(32, 1024 / stripes)</c>.
    /// Bounded further by <see cref="MaximumRetainedBytesPerSizeClass"/>.
    /// </summary>
    public int BlocksPerStripe { get; set; }

    /// <summary>
    /// Stripes per size class: a power of two from 1 to 64; 0 (the default) means the processor count rounded up to a
    /// power of two (at most 64).
    /// </summary>
    public int StripeCount { get; set; }

    /// <summary>
    /// How many threads may keep one block per size class parked in their own slot (the fast path with no interlocked
    /// operation on rent): 0 to 65 536, or -1 for every thread. Default 4 × the processor count. Parked blocks are
    /// outside the byte budget and are not trimmed (only their own thread may touch them); they are freed when that
    /// thread next uses the pool after <c>Dispose</c>, or when it exits.
    /// </summary>
    public int MaximumCachingThreads { get; set; } = 4 * Environment.ProcessorCount;

    /// <summary>Whether idle blocks are freed after gen-2 GCs, on a timer and under memory pressure. Default true.</summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>The idle timer's period; 1 ms to 1 day. Default 30 seconds.</summary>
    public TimeSpan TrimInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>How long blocks stay untouched before trimming frees them; 0 to 1 day. Default 60 seconds.</summary>
    public TimeSpan TrimAge { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>The trim clock; tests inject their own. Null means <see cref="TimeProvider.System"/>.</summary>
    internal TimeProvider? TimeProvider { get; set; }

    /// <summary>The memory-pressure source; tests inject their own. Null means the GC's.</summary>
    internal Func<MemoryPressure>? PressureSource { get; set; }

    /// <summary>
    /// The pool's name in events and metrics (the <c>pool.name</c> tag). Null (the default) means the pool type's
    /// name, e.g. <c>NativeBlockPool</c> or <c>NativeStructPool&lt;Int32&gt;</c>.
    /// </summary>
    public string? Name { get; set; }
}
