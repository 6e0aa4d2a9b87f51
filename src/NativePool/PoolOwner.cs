using System.Threading;

namespace NativePool;

/// <summary>
/// What a pool's thread caches name as their owner: the pool's identity, and the pool-wide counters that are not per
/// thread (trims, the folded counts of dead threads, reported misuses, the thread-slot tokens).
/// </summary>
/// <remarks>
/// Thread caches reference this, never the pool, so an unreferenced pool is collected (and gives its id back) while
/// threads that used it live on. Fields change only on slow paths, always with an interlocked operation.
/// </remarks>
internal sealed class PoolOwner
{
    private long _trimmed;
    private long _movesBegun;
    private long _movesEnded;
    private long _retiredAllocated;
    private long _retiredDropped;
    private long _misuses;
    private int _threadSlotTokens;

    /// <summary>Creates the owner of a new pool whose <paramref name="threadSlotTokens"/> threads may park items (-1: all).</summary>
    public PoolOwner(int threadSlotTokens) => _threadSlotTokens = threadSlotTokens;

    // Volatile reads below: snapshots of counters other threads add to.

    /// <summary>Items removed by trimming.</summary>
    public long Trimmed => Volatile.Read(ref _trimmed);

    /// <summary>Allocations counted by threads that have died.</summary>
    public long RetiredAllocated => Volatile.Read(ref _retiredAllocated);

    /// <summary>Drops counted by threads that have died, including the items they still had parked.</summary>
    public long RetiredDropped => Volatile.Read(ref _retiredDropped);

    /// <summary>Misuses the pool reported (see <see cref="PoolCounts.Misuses"/>).</summary>
    // Volatile: a reader on another thread sees every count the reporting threads' increments published.
    public long Misuses => Volatile.Read(ref _misuses);

    /// <summary>Counts one reported misuse.</summary>
    // Interlocked: callers on any number of threads may misuse the pool at once; each report is counted once.
    public void CountMisuse() => Interlocked.Increment(ref _misuses);

    /// <summary>Opens a move: pooled items are about to leave the pool's places (trimmed, or folded into a dead thread's drops).</summary>
    /// <remarks>Statistics readers wait for open moves and retry when one opened while they read (<see cref="BeginSnapshot"/>), so an item in flight is never counted as held by a caller.</remarks>
    // Interlocked: movers run on the timer, the finalizer and callers' threads at once; each open is counted once.
    public void BeginMove() => Interlocked.Increment(ref _movesBegun);

    /// <summary>Closes a move, counting <paramref name="trimmed"/> items (those it took out of the pool for good) as trimmed first.</summary>
    public void EndMove(long trimmed)
    {
        if (trimmed != 0)
        {
            // Interlocked: several trimmers (timer, Gen2 callback, Clear, a drain) may count at once.
            Interlocked.Add(ref _trimmed, trimmed);
        }

        // Interlocked: a full fence, so a reader that sees the close also sees the counts and the emptied places.
        Interlocked.Increment(ref _movesEnded);
    }

    /// <summary>Waits until no move is open and returns a stamp for <see cref="IsSnapshotValid"/>.</summary>
    /// <remarks>If no move opened between this and <see cref="IsSnapshotValid"/>, every item read was in one place only: exact once callers are quiet.</remarks>
    public long BeginSnapshot()
    {
        var spinner = default(SpinWait);
        while (true)
        {
            // Volatile, ended first: if begun then equals it, no move was open when ended was read, nor opened since.
            long ended = Volatile.Read(ref _movesEnded);
            long begun = Volatile.Read(ref _movesBegun);
            if (begun == ended)
            {
                return begun;
            }

            spinner.SpinOnce();
        }
    }

    /// <summary>Whether no move opened since <paramref name="stamp"/> was taken.</summary>
    // Volatile: ordered after the reader's (volatile) reads of the counters and places.
    public bool IsSnapshotValid(long stamp) => Volatile.Read(ref _movesBegun) == stamp;

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

    /// <summary>Folds the counts of a dead thread's cache in and gives its token back.</summary>
    public void Retire(long allocated, long dropped, bool heldToken)
    {
        // Interlocked: finalizers of several dead threads' caches and readers run concurrently.
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
