using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// One thread's record of its live scopes (the <see langword="ref"/> struct leases): each scope gets a number no other
/// scope of the thread ever had, and is live while its number is in the ledger.
/// </summary>
/// <remarks>
/// <para>
/// A <see langword="ref"/> struct cannot leave its thread, so every copy of a scope is checked and ended on the thread
/// that made it: the ledger is touched by that thread alone, with plain loads and stores of integers (no interlocked
/// instruction, no write barrier).
/// </para>
/// <para>
/// Slots. The ledger is a table of slots, a power of two of them; a slot is 0 (free) or holds the full number of the
/// live scope whose number's low bits are the slot's index. <see cref="IsLive"/> and <see cref="TryEnd"/> read the one
/// slot their number names, so they cost the same whatever the thread has begun, ended or abandoned before. A scope's
/// number is the next one whose slot is free: numbers whose slot still holds a live scope are skipped (and never handed
/// out), so a long-lived scope is never disturbed by any number of later scopes that end. Numbers are 64-bit and only
/// grow, so a stale copy of an ended scope never matches a later scope (2^63 scopes take 292 years at 10^9 a second).
/// </para>
/// <para>
/// The bound. The table starts at 8 slots and doubles when every slot holds a live scope, up to
/// <see cref="MaximumLiveScopes"/> (256 slots, 2 KiB): a thread's ledger never holds more, however many scopes it
/// abandons (lets go out of scope without disposing them). When all 256 hold live scopes, a new scope evicts the one in
/// the slot its number lands on (on a thread that keeps abandoning scopes, the oldest). The eviction is reported as a
/// leak: a <see cref="NativePoolEventSource.Leak"/> event whose pool name is <see cref="LeakPoolName"/> and pool id -1
/// (the ledger serves the scopes of every pool of its thread and does not know which pool an array came from), whose
/// text names the scope and the thread. The evicted scope is ended for good: every copy of it is inactive, its views
/// throw <see cref="ObjectDisposedException"/>, and its <c>Dispose</c> does nothing, so its array never goes back to
/// its pool (the pool counts it outstanding) and can never reach a second renter. A thread that really holds more than
/// 256 scopes live at once loses its oldest ones this way, reported.
/// </para>
/// </remarks>
internal sealed class ScopeLedger
{
    /// <summary>The most scopes one thread's ledger tracks at once: its table never grows past this many slots.</summary>
    internal const int MaximumLiveScopes = 256;

    /// <summary>The pool name of the leak events that report an evicted scope.</summary>
    internal const string LeakPoolName = "RentScoped";

    private const int InitialSlots = 8;

    private long[] _slots = new long[InitialSlots];
    private long _last;
    private int _live;
    private long _evictions;

    /// <summary>The calling thread's ledger.</summary>
    public static ScopeLedger Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ThreadCacheTable.ScopeLedger ?? Create();
    }

    /// <summary>The number of slots the ledger holds: at most <see cref="MaximumLiveScopes"/> (tests).</summary>
    internal int SlotCount => _slots.Length;

    /// <summary>How many live scopes later scopes have evicted from this ledger (tests).</summary>
    internal long Evictions => _evictions;

    /// <summary>The slots themselves (tests).</summary>
    internal long[] SlotsForTest => _slots;

    /// <summary>Begins a scope; returns its number (never 0).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long Begin()
    {
        long number = _last + 1;
        ref long slot = ref Slot(_slots, number);
        if (slot == 0)
        {
            slot = number;
            _last = number;
            _live++;
            return number;
        }

        return BeginSlow();
    }

    /// <summary>Whether scope <paramref name="number"/> (a number <see cref="Begin"/> returned) is live.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsLive(long number) => Slot(_slots, number) == number;

    /// <summary>
    /// Ends scope <paramref name="number"/> (a number <see cref="Begin"/> returned); true for the first call per scope,
    /// false for every later one and for a scope that was evicted.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEnd(long number)
    {
        ref long slot = ref Slot(_slots, number);
        if (slot != number)
        {
            return false;
        }

        slot = 0;
        _live--;
        return true;
    }

    /// <summary>The index of the slot scope <paramref name="number"/> lives in (tests).</summary>
    internal int SlotIndexForTest(long number) => (int)(number & (_slots.Length - 1));

    /// <summary>The slot <paramref name="number"/> names in <paramref name="slots"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ref long Slot(long[] slots, long number) =>
        // Through a ref: the index is masked to the length, a power of two, so it is always in range.
        ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(slots), (nint)(number & (slots.Length - 1)));

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ScopeLedger Create()
    {
        var ledger = new ScopeLedger();
        ThreadCacheTable.ScopeLedger = ledger;
        return ledger;
    }

    /// <summary>The next number's slot holds a live scope: skip to a free slot, growing the table or evicting if none is.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long BeginSlow()
    {
        if (_live == _slots.Length)
        {
            if (_slots.Length == MaximumLiveScopes)
            {
                return BeginEvicting();
            }

            Grow();
        }

        // Some slot is free: skip the numbers whose slots hold live scopes (fewer than the table has slots).
        long[] slots = _slots;
        long number = _last + 1;
        while (Slot(slots, number) != 0)
        {
            number++;
        }

        Slot(slots, number) = number;
        _last = number;
        _live++;
        return number;
    }

    /// <summary>Doubles the table; every live scope moves to the slot its number names in the larger table.</summary>
    private void Grow()
    {
        long[] slots = _slots;
        var grown = new long[slots.Length * 2];
        foreach (long number in slots)
        {
            if (number != 0)
            {
                // Distinct low bits in the smaller table stay distinct with one more bit: no two land on one slot.
                Slot(grown, number) = number;
            }
        }

        _slots = grown;
    }

    /// <summary>Every slot holds a live scope and the table is at its bound: the next number takes its slot over.</summary>
    private long BeginEvicting()
    {
        long number = _last + 1;
        ref long slot = ref Slot(_slots, number);
        long evicted = slot;
        slot = number;
        _last = number;
        _evictions++;
        ReportEviction(evicted);
        return number;
    }

    private static void ReportEviction(long number)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.Leak(
                0,
                0,
                -1,
                $"Scope {number} of thread {Environment.CurrentManagedThreadId} was never disposed: a new scope found all " +
                $"{MaximumLiveScopes} slots of the thread's scope ledger live and evicted it. Its array never goes back to its " +
                "pool, and disposing any copy of the scope now does nothing.",
                LeakPoolName);
        }
    }
}
