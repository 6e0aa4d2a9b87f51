using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A snapshot of one pool's counters.</summary>
/// <remarks>
/// The counters are kept per thread and per stripe and summed only when read, so reading costs O(threads + stripes)
/// and the hot path pays no atomic operation for them. A snapshot taken while other threads rent and return is
/// approximate; once they stop it is exact, and <see cref="IsConserved"/> holds:
/// <c>Allocated = Pooled + Outstanding + Dropped + Trimmed</c>.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public readonly record struct PoolStatistics
{
    /// <summary>Items handed out (rents or gets), including those the pool had to allocate.</summary>
    public long Rented { get; init; }

    /// <summary>Items handed back (returns), including those the pool did not keep.</summary>
    public long Returned { get; init; }

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

    /// <summary>Items rented and not yet returned: <see cref="Rented"/> − <see cref="Returned"/>.</summary>
    public long Outstanding => Rented - Returned;

    /// <summary>True when every allocated item is accounted for as pooled, outstanding, dropped or trimmed.</summary>
    public bool IsConserved => Allocated == Pooled + Outstanding + Dropped + Trimmed;

    /// <inheritdoc />
    public override string ToString() =>
        FormattableString.Invariant(
            $"rented {Rented}, returned {Returned}, allocated {Allocated}, dropped {Dropped}, trimmed {Trimmed}, pooled {Pooled} ({PooledBytes} B), outstanding {Outstanding}");
}
