using System.Threading;

namespace NativePool;

/// <summary>The pool-wide counters that are not per-thread: trims, and the folded counts of dead threads.</summary>
/// <remarks>Every field changes only on slow paths (trim, thread death, cache creation), always with an interlocked add.</remarks>
internal sealed class PoolTotals
{
    private long _trimmed;
    private long _retiredRented;
    private long _retiredReturned;
    private long _retiredAllocated;
    private long _retiredDropped;
    private int _threadSlotTokens;

    /// <summary>Creates the totals; <paramref name="threadSlotTokens"/> is how many threads may park items (-1: all).</summary>
    public PoolTotals(int threadSlotTokens) => _threadSlotTokens = threadSlotTokens;

    // Volatile reads below: snapshots of counters other threads add to.

    /// <summary>Items removed by trimming.</summary>
    public long Trimmed => Volatile.Read(ref _trimmed);

    /// <summary>Rents counted by threads that have died.</summary>
    public long RetiredRented => Volatile.Read(ref _retiredRented);

    /// <summary>Returns counted by threads that have died.</summary>
    public long RetiredReturned => Volatile.Read(ref _retiredReturned);

    /// <summary>Allocations counted by threads that have died.</summary>
    public long RetiredAllocated => Volatile.Read(ref _retiredAllocated);

    /// <summary>Drops counted by threads that have died, including the items they still had parked.</summary>
    public long RetiredDropped => Volatile.Read(ref _retiredDropped);

    /// <summary>Counts <paramref name="count"/> trimmed items.</summary>
    // Interlocked: the trimmer (finalizer thread, timer thread, any caller of Trim) may run on several threads at once.
    public void AddTrimmed(long count) => Interlocked.Add(ref _trimmed, count);

    /// <summary>Takes one thread-slot token; false when the budget is spent.</summary>
    public bool TryTakeThreadSlotToken()
    {
        while (true)
        {
            // Volatile + CAS: many threads creating their caches at once race for the last tokens.
            int tokens = Volatile.Read(ref _threadSlotTokens);
            if (tokens < 0)
            {
                return true;
            }

            if (tokens == 0)
            {
                return false;
            }

            // CAS: two threads that both read the last token must not both take it; the loser reads again.
            if (Interlocked.CompareExchange(ref _threadSlotTokens, tokens - 1, tokens) == tokens)
            {
                return true;
            }
        }
    }

    /// <summary>Folds the counts of a dead thread's cache in.</summary>
    public void Retire(long rented, long returned, long allocated, long dropped, bool heldToken)
    {
        // Interlocked: finalizers of several dead threads' caches and readers run concurrently.
        Interlocked.Add(ref _retiredRented, rented);
        Interlocked.Add(ref _retiredReturned, returned);
        Interlocked.Add(ref _retiredAllocated, allocated);
        Interlocked.Add(ref _retiredDropped, dropped);
        // Volatile: the budget's sign (-1 = unlimited) never changes, but the count does on other threads; read it fresh.
        if (heldToken && Volatile.Read(ref _threadSlotTokens) >= 0)
        {
            // Interlocked: gives the dead thread's token back while live threads may be taking tokens.
            Interlocked.Increment(ref _threadSlotTokens);
        }
    }
}
