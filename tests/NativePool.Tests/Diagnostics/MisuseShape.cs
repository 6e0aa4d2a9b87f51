namespace NativePool.Tests.Diagnostics;

/// <summary>A kind of misuse a <see cref="SeededMisuseRun{TItem}"/> injects.</summary>
internal enum MisuseShape
{
    /// <summary>An item returned twice in a row: the second return comes while it is still in the pool.</summary>
    DoubleReturnWhilePooled,

    /// <summary>An item the pool never handed out, returned to it.</summary>
    ForeignReturn,

    /// <summary>The returning thread writes into the item it just returned, then rents it straight back.</summary>
    WriteAfterReturn,

    /// <summary>Another thread writes into an item while it sits in the pool; the thread that returned it rents it back.</summary>
    WriteAfterReturnByAnotherThread,

    /// <summary>A lease ends, its item goes to the next lease, and a copy of the ended lease is disposed on another thread.</summary>
    StaleLeaseDispose,

    /// <summary>
    /// Thread A returns an item (through thread B, which rents it straight back) and keeps the reference; some steps
    /// later A returns the item again, while B or a later renter has it, or after it went back to the pool.
    /// </summary>
    StaleDoubleReturn,
}
