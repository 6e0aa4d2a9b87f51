using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// The thread-local first level of one pool on one thread: one slot per size class, plus the thread's counters.
/// </summary>
/// <remarks>
/// Only the owning thread writes the slots' items in and the counters, with plain stores: the common Rent+Return pair
/// touches no shared line and runs no interlocked instruction. The trimmer, on another thread, may take an item out of a
/// slot with <c>Interlocked.Exchange</c>; it never hands that item to anyone, so a race with the owner can at worst make
/// one item counted both as rented and as trimmed, never give one item to two renters. When the thread dies the cache
/// becomes unreachable (the pool only holds it weakly) and its finalizer folds the counts into the pool's
/// <see cref="PoolTotals"/>, counting any items still parked here as dropped.
/// </remarks>
internal sealed class ThreadCache<T> where T : class
{
    /// <summary>Stripe operations between two reads of the processor id.</summary>
    internal const int HomeRefreshPeriod = 32;

    /// <summary>One parked item per size class (null when empty). Index with a class the pool has validated.</summary>
    internal readonly T?[] _slots;

    /// <summary>False when the pool's thread-slot budget was spent when this cache was made: returns skip the slots.</summary>
    internal readonly bool _slotsEnabled;

    /// <summary>This thread's home stripe, as of the last refresh (owner-written).</summary>
    internal int _home;

    /// <summary>Stripe operations left before <see cref="_home"/> is re-read; starts at 0 so the first one reads it.</summary>
    internal int _homeCountdown;

    /// <summary>Rents served on this thread (owner-written).</summary>
    internal long _rented;

    /// <summary>Returns accepted or dropped on this thread (owner-written).</summary>
    internal long _returned;

    /// <summary>Items created because the pool had none (owner-written).</summary>
    internal long _allocated;

    /// <summary>Returned items the pool did not keep (owner-written).</summary>
    internal long _dropped;

    /// <summary>The trimmer's record of <see cref="_rented"/> + <see cref="_returned"/> at its last pass (trimmer-owned).</summary>
    internal long _trimActivity;

    /// <summary>The trimmer's clock reading when it first saw this cache idle, 0 when active (trimmer-owned).</summary>
    internal long _trimIdleSince;

    private readonly PoolTotals _totals;

    /// <summary>Creates the cache of one thread for a pool with <paramref name="classCount"/> classes.</summary>
    public ThreadCache(int classCount, bool slotsEnabled, PoolTotals totals)
    {
        _slots = new T?[classCount];
        _slotsEnabled = slotsEnabled;
        _totals = totals;
    }

    /// <summary>Finalizes the cache of a dead thread: its counts and parked items move to the pool's totals.</summary>
    ~ThreadCache()
    {
        int parked = 0;
        foreach (T? item in _slots)
        {
            if (item is not null)
            {
                parked++;
            }
        }

        _totals.Retire(_rented, _returned, _allocated, _dropped + parked, _slotsEnabled);
    }

    /// <summary>The slot of class <paramref name="sizeClass"/>; the caller has checked the class is in range.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref T? Slot(int sizeClass) => ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), sizeClass);
}
