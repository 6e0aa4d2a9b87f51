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
/// No bound, and no eviction. A scope that is live stays live until one of its copies is disposed, whatever other code on
/// the thread does: a correct recursion of any depth keeps every level's scope, and scopes that other code abandoned
/// (let go out of scope without disposing) never end a correct component's scope. The table starts at 8 slots and
/// doubles when the slow path finds it half full, so the slots a new number skips stay few. An abandoned scope keeps its
/// slot for the life of the thread, 8 bytes beside the array it leaked, which never goes back to its pool. So that such
/// leaks are seen, a doubling that leaves more than <see cref="LeakReportThreshold"/> scopes live on one thread raises a
/// <see cref="NativePoolEventSource.Leak"/> event whose pool name is <see cref="LeakPoolName"/> and pool id -1 (the ledger
/// serves the scopes of every pool of its thread), naming the thread and the count: once per doubling, so at most a few
/// dozen in a thread's life.
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
        get => Unsafe.As<ScopeLedger?>(ThreadCacheTable.Extension) ?? Create();
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

    /// <summary>
    /// Ends scope <paramref name="number"/> (a number <see cref="Begin"/> returned); true for the first call per scope,
    /// false for every later one.
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
        ThreadCacheTable.Extension = ledger;
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
            NativePoolEventSource.Log.Leak(
                0,
                0,
                -1,
                $"Thread {Environment.CurrentManagedThreadId} holds {live} live scopes: scopes that are never disposed keep their " +
                "arrays from their pools. Every scope stays valid until a copy of it is disposed.",
                LeakPoolName);
        }
    }
}
