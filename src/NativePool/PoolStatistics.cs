using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A snapshot of one pool's counters.</summary>
/// <remarks>
/// The hot path (a rent or return served by the calling thread's slot) writes nothing but the slot, so rents and
/// returns are not counted. The counters are kept where the slow paths already pay (allocations, drops, trims, per
/// thread, summed only when read) and <see cref="Outstanding"/> is derived from them and the items the pool holds:
/// <c>Outstanding = Allocated − Pooled − Dropped − Trimmed</c>. A snapshot taken while other threads rent and return is
/// approximate; once they stop it is exact, so <see cref="Outstanding"/> is then the number of items callers hold. Trim
/// passes, disposal and the clean-up of dead threads may run during the read: an item they move is counted in exactly
/// one place, because the read is retried when one of them moved items while it read.
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

    /// <summary>Items callers hold now: <see cref="Allocated"/> − <see cref="Pooled"/> − <see cref="Dropped"/> − <see cref="Trimmed"/>.</summary>
    public long Outstanding => Allocated - Pooled - Dropped - Trimmed;

    /// <summary>
    /// True when the counts are consistent: nothing is outstanding below zero (an item returned twice, accepted by a pool
    /// that cannot see the repeat, would make it negative). Holds whenever the pool is quiet and used correctly.
    /// </summary>
    public bool IsConserved => Outstanding >= 0;

    /// <inheritdoc />
    public override string ToString() =>
        FormattableString.Invariant(
            $"allocated {Allocated}, dropped {Dropped}, trimmed {Trimmed}, pooled {Pooled} ({PooledBytes} B), outstanding {Outstanding}");
}
