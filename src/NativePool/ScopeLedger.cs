using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// One thread's record of its live scopes (the <see langword="ref"/> struct leases): each scope gets a number no other
/// scope of the thread ever had, and is live while its number is in the ledger.
/// </summary>
/// <remarks>
/// A <see langword="ref"/> struct cannot leave its thread, so every copy of a scope is checked and ended on the thread
/// that made it: the ledger is touched by that thread alone, with plain loads and stores of integers (no interlocked
/// instruction, no write barrier). Scopes usually end in the reverse order they began (nested <c>using</c>s), so the
/// one to end is found at the top of the ledger at once; any order works. Numbers are 64-bit and never reused, so a
/// stale copy of an ended scope can never match a later one.
/// </remarks>
internal sealed class ScopeLedger
{
    private long[] _live = new long[8];
    private int _count;
    private long _last;

    /// <summary>The calling thread's ledger.</summary>
    public static ScopeLedger Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => ThreadCacheTable.ScopeLedger ?? Create();
    }

    /// <summary>The ledger in <paramref name="caches"/>, the calling thread's cache table (read once by the caller).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ScopeLedger In(object?[] caches) =>
        Unsafe.As<ScopeLedger?>(caches[ThreadCacheTable.ScopeLedgerIndex]) ?? Create();

    /// <summary>Begins a scope; returns its number.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long Begin()
    {
        long number = ++_last;
        int count = _count;
        long[] live = _live;
        if ((uint)count < (uint)live.Length)
        {
            live[count] = number;
            _count = count + 1;
            return number;
        }

        return BeginGrowing(number);
    }

    /// <summary>Whether scope <paramref name="number"/> is live.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsLive(long number)
    {
        int count = _count;
        long[] live = _live;
        if ((uint)(count - 1) < (uint)live.Length && live[count - 1] == number)
        {
            return true;
        }

        return Array.LastIndexOf(live, number, Math.Max(0, count - 1), count) >= 0;
    }

    /// <summary>Ends scope <paramref name="number"/>; true for the first call per scope, false for every later one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEnd(long number)
    {
        int count = _count;
        long[] live = _live;
        if ((uint)(count - 1) < (uint)live.Length && live[count - 1] == number)
        {
            _count = count - 1;
            return true;
        }

        return TryEndOutOfOrder(number);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ScopeLedger Create()
    {
        var ledger = new ScopeLedger();
        ThreadCacheTable.ScopeLedger = ledger;
        return ledger;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private long BeginGrowing(long number)
    {
        Array.Resize(ref _live, _live.Length * 2);
        _live[_count++] = number;
        return number;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool TryEndOutOfOrder(long number)
    {
        int index = _count == 0 ? -1 : Array.LastIndexOf(_live, number, _count - 1, _count);
        if (index < 0)
        {
            return false;
        }

        // Keep the order of the others: the next end is most likely the one now on top.
        Array.Copy(_live, index + 1, _live, index, _count - index - 1);
        _count--;
        return true;
    }
}
