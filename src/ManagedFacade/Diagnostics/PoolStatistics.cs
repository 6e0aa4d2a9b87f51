using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A snapshot of one pool's counters.</summary>
/// <remarks>
/// Rents and returns are not counted (a hit writes nothing but the thread's slot); the counters are kept on the slow
/// paths. Once no other thread rents or returns, a snapshot is exact, whatever trims, disposal or dead threads' clean-up
/// run meanwhile (the read retries when they moved items). While other threads use the pool, the read does not stop
/// them: an item that moves during the read can be counted twice or not at all, so <see cref="Pooled"/> and
/// <see cref="Outstanding"/> are each off by at most the rents, returns and creations made during the read, and
/// <see cref="IsConserved"/> can read false on correct code. Alert on it only in readings taken while the pool is quiet,
/// or when <see cref="Outstanding"/> stays below zero over successive readings.
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

    /// <summary>True when nothing is outstanding below zero (an item returned twice, accepted by a pool that cannot see the repeat, would make it negative); holds whenever the pool is quiet and used correctly (see the remarks).</summary>
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
