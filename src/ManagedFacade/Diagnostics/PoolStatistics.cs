using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A snapshot of one pool's counters.</summary>
/// <remarks>
/// The hot path (a rent or return served by the calling thread's slot) writes nothing but the slot, so rents and
/// returns are not counted. The counters are kept where the slow paths already pay (allocations, drops, trims, per
/// thread, summed only when read) and <see cref="Outstanding"/> is derived from them and the items the pool holds:
/// <c>Outstanding = Allocated − Pooled − Dropped − Trimmed</c>. Once no other thread rents or returns, a snapshot is
/// exact, and <see cref="Outstanding"/> is the number of items callers hold. Trim passes, disposal and the clean-up of
/// dead threads may run during the read: an item they move is counted in exactly one place, because the read is retried
/// when one of them moved items while it read.
/// <para>
/// Which readings are approximate, and how far. The read visits the counters, the stripes and each thread's slots one
/// after another, without stopping the threads that rent and return (stopping them would cost every rent a shared
/// write). An item that moves during the read from a place already read to one not yet read (rented from a stripe and
/// returned to another thread's slot, say) is counted twice, one moving the other way not at all, and a counter read
/// early misses the operations after it. So while other threads use the pool, <see cref="Pooled"/> and
/// <see cref="Outstanding"/> are each off by at most the number of rents, returns and creations made during the read, in
/// either direction, and <see cref="IsConserved"/> can read false on correct code. Alert on it only in readings taken
/// while the pool is quiet, or when <see cref="Outstanding"/> stays below zero over successive readings.
/// </para>
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public readonly record struct PoolStatistics
{
    /// <summary>Items the pool created because it had none to hand out (also oversize arrays).</summary>
    public long Allocated { get; init; }

    /// <summary>Returned items the pool did not keep (full, oversize, rejected), and items parked on threads that died.</summary>
    public long Dropped { get; init; }

    /// <summary>Items removed from the pool by trimming (idle age, memory pressure, explicit trim, disposal).</summary>
    public long Trimmed { get; init; }

    /// <summary>Items in the pool now (stripes and thread-local slots).</summary>
    public long Pooled { get; init; }

    /// <summary>Bytes held by the items in the pool now (for arrays: length × element size; 0 for objects).</summary>
    public long PooledBytes { get; init; }

    /// <summary>
    /// Misuses the pool reported since it was created: every double return it saw, and in guarded mode every foreign
    /// return and write after return, under the <c>Throw</c> and <c>Report</c> policies (a misuse the <c>Ignore</c>
    /// policy ignores is not counted). Counted whether or not anybody listens to the event source or passed a callback,
    /// so it is the reading that still shows a double return on <c>StripedArrayPool&lt;T&gt;.Shared</c> (whose default
    /// policy only writes an event) where events are off, as in a Native AOT app. Exact at any time, not only once callers
    /// are quiet: each report adds one with an interlocked increment, and the count never goes down.
    /// </summary>
    public long Misuses { get; init; }

    /// <summary>Items callers hold now: <see cref="Allocated"/> − <see cref="Pooled"/> − <see cref="Dropped"/> − <see cref="Trimmed"/>.</summary>
    public long Outstanding => Allocated - Pooled - Dropped - Trimmed;

    /// <summary>
    /// True when the counts are consistent: nothing is outstanding below zero (an item returned twice, accepted by a pool
    /// that cannot see the repeat, would make it negative). Holds whenever the pool is quiet and used correctly; a
    /// reading taken while other threads rent and return may be false on correct code (see the remarks).
    /// </summary>
    public bool IsConserved => Outstanding >= 0;

    /// <inheritdoc />
    public override string ToString() =>
        FormattableString.Invariant(
            $"allocated {Allocated}, dropped {Dropped}, trimmed {Trimmed}, pooled {Pooled} ({PooledBytes} B), outstanding {Outstanding}, misuses {Misuses}");

    /// <summary>The snapshot of the engine's reading <paramref name="counts"/>.</summary>
    internal static PoolStatistics From(PoolCounts counts) => new()
    {
        Allocated = counts.Allocated,
        Dropped = counts.Dropped,
        Trimmed = counts.Trimmed,
        Pooled = counts.Pooled,
        PooledBytes = counts.PooledBytes,
        Misuses = counts.Misuses,
    };
}
