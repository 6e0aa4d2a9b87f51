using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>One thread's record of its live scopes (the <see langword="ref"/> struct leases): each scope gets a number no other scope of the thread ever had, and is live while its number is in the ledger.</summary>
/// <remarks>
/// <para>
/// A <see langword="ref"/> struct cannot leave its thread, so the ledger is touched by that thread alone, with plain
/// loads and stores. It is a power-of-two table of slots, each 0 (free) or the full number of the live scope whose low
/// bits are its index: <see cref="IsLive"/> and <see cref="TryEnd"/> read one slot, whatever came before. A new scope
/// takes the next number whose slot is free, so a long-lived scope is never disturbed; numbers are 64-bit and only grow,
/// so a stale copy never matches a later scope.
/// </para>
/// <para>
/// No bound and no eviction: a scope stays live until one of its copies is disposed, so a correct recursion of any depth
/// keeps every level and abandoned scopes never end a correct one. The table starts at 8 slots and doubles when half
/// full; a doubling that leaves more than <see cref="LeakReportThreshold"/> scopes live raises a
/// <see cref="NativePoolEventSource.Leak"/> event (pool <see cref="LeakPoolName"/>, id -1) naming the thread and count.
/// </para>
/// </remarks>
internal sealed class ScopeLedger
{
    /// <summary>The live scopes of one thread beyond which each doubling of its table is reported as a likely leak.</summary>
    internal const int LeakReportThreshold = 256;

    /// <summary>The pool name of the leak events that report a thread holding many live scopes.</summary>
    internal const string LeakPoolName = "RentScoped";

    private const int InitialSlots = 8;

    private long[] _slots = new long[InitialSlots];
    private long _last;
    private int _live;
    private int _reports;

    /// <summary>The calling thread's ledger.</summary>
    public static ScopeLedger Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ThreadCacheTable.Ledger ?? Create();
    }

    /// <summary>The number of slots the ledger holds (tests).</summary>
    internal int SlotCount => _slots.Length;

    /// <summary>The scopes live now (tests).</summary>
    internal int LiveCount => _live;

    /// <summary>How many doublings this ledger reported as a likely leak (tests).</summary>
    internal int Reports => _reports;

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

    /// <summary>Ends scope <paramref name="number"/> (from <see cref="Begin"/>); true for the first call per scope, false for every later one.</summary>
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
        ThreadCacheTable.Ledger = ledger;
        return ledger;
    }

    /// <summary>The next number's slot holds a live scope: skip to a free slot, first doubling the table when it is half full.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private long BeginSlow()
    {
        if (_live * 2 >= _slots.Length)
        {
            Grow();
        }

        // At most half the slots hold live scopes: the numbers skipped are few, and a free slot is always found.
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
        if (_live > LeakReportThreshold)
        {
            _reports++;
            ReportManyLive(_live);
        }
    }

    private static void ReportManyLive(int live)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            string message = $"Thread {Environment.CurrentManagedThreadId} holds {live} live scopes: scopes that are never disposed keep their " +
                "arrays from their pools. Every scope stays valid until a copy of it is disposed.";
            NativePoolEventSource.Log.Leak(0, 0, -1, message, LeakPoolName);
        }
    }
}
