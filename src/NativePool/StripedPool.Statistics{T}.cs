using System;
using System.Collections.Generic;
using System.Threading;

namespace NativePool;

/// <content>Statistics: the counters summed on read, for the whole pool and per size class.</content>
internal sealed partial class StripedPool<T>
{
    /// <summary>Sums the counters of every thread and stripe: exact once nobody rents or returns, whatever trims, drains and finalizers run, since the read retries
    /// when one of them moved items meanwhile (<see cref="PoolOwner.BeginSnapshot"/>).</summary>
    public PoolCounts ReadCounts() => ReadCounts(static () => 0).Counts;

    /// <summary><see cref="ReadCounts()"/> with the facade's own counters (<paramref name="readExtra"/>: native bytes) read in the same snapshot, so an item a trim discards is, in both, pooled or gone.</summary>
    public (PoolCounts Counts, TExtra Extra) ReadCounts<TExtra>(Func<TExtra> readExtra) =>
        Snapshot(readExtra, static (pool, read) => (pool.ReadCountsOnce(), read()));

    /// <summary>Runs <paramref name="read"/> until no move opened while it ran (<see cref="PoolOwner.BeginSnapshot"/>).</summary>
    private TResult Snapshot<TState, TResult>(TState state, Func<StripedPool<T>, TState, TResult> read)
    {
        while (true)
        {
            long stamp = _owner.BeginSnapshot();
            TResult result = read(this, state);
            if (_owner.IsSnapshotValid(stamp))
            {
                return result;
            }
        }
    }

    private PoolCounts ReadCountsOnce()
    {
        long allocated = _owner.RetiredAllocated;
        long dropped = _owner.RetiredDropped;
        long trimmed = _owner.Trimmed;
        long misuses = _owner.Misuses;
        long pooled = 0;
        long pooledBytes = 0;

        // Read after the retired totals: a cache retired since is not listed, and the read is retried (its fold is a move).
        List<ThreadCache<T>> caches = LiveThreadCaches();
        foreach (ThreadCache<T> cache in caches)
        {
            // The owner thread counts these; OwnerCounter reads its latest published values, never torn.
            allocated += OwnerCounter.Read(ref cache._allocated);
            dropped += OwnerCounter.Read(ref cache._dropped);
        }

        for (int c = 0; c < _classCount; c++)
        {
            long count = ReadPooled(c, caches);
            pooled += count;
            pooledBytes += count * _itemBytes[c];
        }

        return new PoolCounts(allocated, dropped, trimmed, pooled, pooledBytes, misuses);
    }

    /// <summary>Items parked in <paramref name="cache"/>'s slots and magazines of the classes in [<paramref name="fromClass"/>, <paramref name="toClass"/>): a snapshot.</summary>
    private static int CountParked(ThreadCache<T> cache, int fromClass, int toClass) =>
        // Volatile: the owner fills and empties its slots and magazines concurrently with this read (a drained magazine
        // keeps its count until the owner's next operation, so the places are read, not the count).
        cache.VisitParked(fromClass, toClass, 0, static (int _, ref T? place) => Volatile.Read(ref place) is null ? 0 : 1);

    /// <summary>Items parked in live threads' slots and magazines, all classes (a snapshot; tests of the reclaim of idle tiers).</summary>
    /// <returns>The count; exact once no other thread is renting or returning.</returns>
    internal long CountParkedInThreadTiers()
    {
        long parked = 0;
        foreach (ThreadCache<T> cache in LiveThreadCaches())
        {
            parked += CountParked(cache, 0, _classCount);
        }

        return parked;
    }

    /// <summary>Items of <paramref name="sizeClass"/> the pool holds now: its stripes and every live thread's slot and magazine.</summary>
    /// <param name="sizeClass">The class.</param>
    /// <returns>A snapshot (exact once no other thread is renting or returning, as <see cref="ReadCounts()"/>).</returns>
    public long CountPooled(int sizeClass) =>
        Snapshot(sizeClass, static (pool, c) => pool.ReadPooled(c, pool.LiveThreadCaches()));

    private long ReadPooled(int sizeClass, List<ThreadCache<T>> caches)
    {
        long pooled = GetStripes(sizeClass)?.CountItems() ?? 0;
        foreach (ThreadCache<T> cache in caches)
        {
            pooled += CountParked(cache, sizeClass, sizeClass + 1);
        }

        return pooled;
    }

    /// <summary>How many thread caches the statistics still read (until a dead thread's cache is finalized): tests wait on it instead of guessing collections.</summary>
    internal int CountLiveThreadCaches() => LiveThreadCaches().Count;

    /// <summary>Bytes one item of <paramref name="sizeClass"/> holds (0 for objects).</summary>
    /// <param name="sizeClass">The class.</param>
    /// <returns>The item size.</returns>
    public long GetItemBytes(int sizeClass) => _itemBytes[sizeClass];

    /// <summary>The most bytes the pool's stripes can hold: every stripe of every class full.</summary>
    public long MaximumStripeBytes => SumOverClasses(static (pool, c) => (long)pool._capacityPerStripe[c] * pool.StripeCount * pool._itemBytes[c]);

    /// <summary>The most bytes one thread can park for this pool on top of the stripes (and any budget): one slot item per class and each class's full magazine.</summary>
    public long MaximumThreadBytes => SumOverClasses(static (pool, c) => (1L + pool._magazineCapacity[c]) * pool._itemBytes[c]);

    private long SumOverClasses(Func<StripedPool<T>, int, long> perClass)
    {
        long sum = 0;
        for (int c = 0; c < _classCount; c++)
        {
            sum += perClass(this, c);
        }

        return sum;
    }
}
