using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The NativePool engine: a pool of items of type <typeparamref name="T"/> in one or more size classes, with a
/// thread-local first level in front of per-core stripes.
/// </summary>
/// <remarks>
/// <para>
/// Tiers. A rent first looks in the calling thread's <see cref="ThreadCache{T}"/> (one slot per class, plain loads and
/// stores, no shared line); on a miss it pops the stripe chosen by <see cref="Thread.GetCurrentProcessorId"/>, then the
/// nearest stripes that hold items (<see cref="StripeSet{T}"/>); then it allocates. A return parks the item in the thread
/// slot, moving what was parked there to the stripes, so the most recently returned item is always the next one rented
/// on that thread; when every stripe tried is full the item is dropped.
/// </para>
/// <para>
/// Ownership. Every item is, at any instant, in exactly one place: one thread slot, one stripe slot, or a caller's hands.
/// A thread slot is only filled and emptied by its thread (the trimmer only ever removes, never hands out); a stripe slot
/// only under its stripe's claim. So no item can be handed to two renters unless a caller returns it twice; the engine
/// detects the cheap cases of that (the item is in the thread slot or on top of the stripe) and reports
/// <see cref="ReturnResult.Duplicate"/>.
/// </para>
/// <para>
/// Pool ids are process-unique and never reused; each pool's thread caches live in <see cref="ThreadCacheTable"/> at its
/// id, so <c>Shared</c> and independent instances run the same fast path.
/// </para>
/// </remarks>
internal sealed partial class StripedPool<T> where T : class
{
    private readonly int _id;
    private readonly int _classCount;
    private readonly int _stripeMask;
    private readonly StripeSet<T>?[] _classes;
    private readonly int[] _capacityPerStripe;
    private readonly long[] _itemBytes;
    private readonly Func<int, T> _allocate;
    private readonly Action<T>? _onDiscard;
    private readonly PoolTotals _totals;
    private readonly ConditionalWeakTable<ThreadCache<T>, object?> _threadCaches = new();

    /// <summary>Creates a pool.</summary>
    /// <param name="settings">Shape and trimming.</param>
    /// <param name="allocate">Creates an item of a class on a miss.</param>
    /// <param name="onDiscard">Runs on every item the pool lets go of (dropped or trimmed), or null.</param>
    public StripedPool(StripedPoolSettings settings, Func<int, T> allocate, Action<T>? onDiscard = null)
    {
        _id = ThreadCacheTable.AllocatePoolId();
        _classCount = settings.ClassCount;
        _stripeMask = settings.StripeCount - 1;
        _classes = new StripeSet<T>?[_classCount];
        _capacityPerStripe = settings.CapacityPerStripe;
        _itemBytes = settings.ItemBytes ?? new long[_classCount];
        _allocate = allocate;
        _onDiscard = onDiscard;
        _totals = new PoolTotals(settings.ThreadSlotTokens);
        _clock = settings.Clock;
        _pressure = settings.Pressure;
        _trimAgeMs = (long)settings.TrimAge.TotalMilliseconds;
        _trimThreadCaches = settings.TrimThreadCaches;
        if (settings.TrimmingEnabled)
        {
            StartTrimming(settings.TrimInterval);
        }
    }

    /// <summary>The process-unique id of this pool (its index in every thread's cache table).</summary>
    public int Id => _id;

    /// <summary>The number of size classes.</summary>
    public int ClassCount => _classCount;

    /// <summary>The number of stripes per class.</summary>
    public int StripeCount => _stripeMask + 1;

    /// <summary>Items one stripe of class <paramref name="sizeClass"/> holds.</summary>
    public int CapacityPerStripe(int sizeClass) => _capacityPerStripe[sizeClass];

    /// <summary>Rents an item of class <paramref name="sizeClass"/> (already validated), allocating on a miss.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T Rent(int sizeClass)
    {
        object? entry = ThreadCacheTable.Get(_id);
        if (entry is not null)
        {
            ThreadCache<T> cache = Unsafe.As<ThreadCache<T>>(entry);
            ref T? slot = ref cache.Slot(sizeClass);
            T? item = slot;
            cache._rented++;
            if (item is not null)
            {
                slot = null;
                return item;
            }

            return RentFromStripes(sizeClass, cache);
        }

        return RentWithNewCache(sizeClass);
    }

    /// <summary>Returns <paramref name="item"/> of class <paramref name="sizeClass"/> (already validated).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult Return(int sizeClass, T item)
    {
        object? entry = ThreadCacheTable.Get(_id);
        if (entry is not null)
        {
            ThreadCache<T> cache = Unsafe.As<ThreadCache<T>>(entry);
            ref T? slot = ref cache.Slot(sizeClass);
            if (slot is null && cache._slotsEnabled)
            {
                slot = item;
                cache._returned++;
                return ReturnResult.Stored;
            }

            return ReturnToStripes(sizeClass, item, cache);
        }

        return ReturnWithNewCache(sizeClass, item);
    }

    /// <summary>Counts a rent the pool served outside its classes (an oversize array).</summary>
    public void RecordUnpooledRent()
    {
        ThreadCache<T> cache = GetOrCreateCache();
        cache._rented++;
        cache._allocated++;
    }

    /// <summary>Counts a return the pool does not keep by design (an oversize array).</summary>
    public void RecordUnpooledReturn()
    {
        ThreadCache<T> cache = GetOrCreateCache();
        cache._returned++;
        cache._dropped++;
    }

    /// <summary>The stripes of class <paramref name="sizeClass"/>, or null when nothing of that class was ever returned.</summary>
    internal StripeSet<T>? GetStripes(int sizeClass) => Volatile.Read(ref _classes[sizeClass]);

    /// <summary>Sums the counters of every thread and stripe. Exact once no other thread is renting or returning.</summary>
    public PoolStatistics GetStatistics()
    {
        long rented = _totals.RetiredRented;
        long returned = _totals.RetiredReturned;
        long allocated = _totals.RetiredAllocated;
        long dropped = _totals.RetiredDropped;
        long pooled = 0;
        long pooledBytes = 0;

        foreach (KeyValuePair<ThreadCache<T>, object?> pair in _threadCaches)
        {
            ThreadCache<T> cache = pair.Key;

            // Volatile: the owner thread writes these with plain stores; we want its latest published values.
            rented += Volatile.Read(ref cache._rented);
            returned += Volatile.Read(ref cache._returned);
            allocated += Volatile.Read(ref cache._allocated);
            dropped += Volatile.Read(ref cache._dropped);
            for (int c = 0; c < _classCount; c++)
            {
                // Volatile: the owner fills and empties its slots concurrently with this read.
                if (Volatile.Read(ref cache._slots[c]) is not null)
                {
                    pooled++;
                    pooledBytes += _itemBytes[c];
                }
            }
        }

        for (int c = 0; c < _classCount; c++)
        {
            StripeSet<T>? set = GetStripes(c);
            if (set is not null)
            {
                int count = set.CountItems();
                pooled += count;
                pooledBytes += count * _itemBytes[c];
            }
        }

        return new PoolStatistics
        {
            Rented = rented,
            Returned = returned,
            Allocated = allocated,
            Dropped = dropped,
            Trimmed = _totals.Trimmed,
            Pooled = pooled,
            PooledBytes = pooledBytes,
        };
    }

    private T RentFromStripes(int sizeClass, ThreadCache<T> cache)
    {
        StripeSet<T>? set = _classes[sizeClass];
        if (set is not null)
        {
            T? item = set.Pop(HomeStripe(cache));
            if (item is not null)
            {
                return item;
            }
        }

        return Allocate(sizeClass, cache);
    }

    /// <summary>The calling thread's home stripe: its processor id, re-read every <see cref="ThreadCache{T}.HomeRefreshPeriod"/> stripe operations.</summary>
    /// <remarks>
    /// <see cref="Thread.GetCurrentProcessorId"/> is a hint that may be stale anyway, and on some virtual machines it
    /// costs as much as the stripe operation itself; a thread rarely changes cores within a few dozen operations.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int HomeStripe(ThreadCache<T> cache)
    {
        if (--cache._homeCountdown >= 0)
        {
            return cache._home;
        }

        return RefreshHome(cache);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private int RefreshHome(ThreadCache<T> cache)
    {
        cache._homeCountdown = ThreadCache<T>.HomeRefreshPeriod;
        return cache._home = Thread.GetCurrentProcessorId() & _stripeMask;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T Allocate(int sizeClass, ThreadCache<T> cache)
    {
        T item;
        try
        {
            item = _allocate(sizeClass);
        }
        catch
        {
            // The fast path counted the rent before it knew it would miss; a rent that hands nothing out is no rent.
            cache._rented--;
            throw;
        }

        cache._allocated++;
        return item;
    }

    private ReturnResult ReturnToStripes(int sizeClass, T item, ThreadCache<T> cache)
    {
        ref T? slot = ref cache.Slot(sizeClass);
        T? parked = slot;
        if (ReferenceEquals(parked, item))
        {
            return ReturnResult.Duplicate;
        }

        // Keep the warmest item in the thread slot: the one being returned goes there, the parked one to the stripes.
        T toStripes = item;
        if (parked is not null)
        {
            slot = item;
            toStripes = parked;
        }

        StripeSet<T> set = _classes[sizeClass] ?? CreateStripes(sizeClass);
        StripeResult result = set.Push(HomeStripe(cache), toStripes, item);
        if (result == StripeResult.Duplicate)
        {
            if (parked is not null)
            {
                slot = parked;
            }

            return ReturnResult.Duplicate;
        }

        cache._returned++;
        if (result == StripeResult.Done)
        {
            return ReturnResult.Stored;
        }

        cache._dropped++;
        _onDiscard?.Invoke(toStripes);
        return ReturnResult.Dropped;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentWithNewCache(int sizeClass) => Rent(sizeClass, CreateCache());

    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnWithNewCache(int sizeClass, T item)
    {
        CreateCache();
        return Return(sizeClass, item);
    }

    private T Rent(int sizeClass, ThreadCache<T> cache)
    {
        cache._rented++;
        return RentFromStripes(sizeClass, cache);
    }

    private ThreadCache<T> GetOrCreateCache()
    {
        object? entry = ThreadCacheTable.Get(_id);
        return entry is not null ? Unsafe.As<ThreadCache<T>>(entry) : CreateCache();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private ThreadCache<T> CreateCache()
    {
        var cache = new ThreadCache<T>(_classCount, _totals.TryTakeThreadSlotToken(), _totals);
        _threadCaches.Add(cache, null);
        ThreadCacheTable.Set(_id, cache);
        return cache;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private StripeSet<T> CreateStripes(int sizeClass)
    {
        var created = new StripeSet<T>(_stripeMask + 1, _capacityPerStripe[sizeClass]);

        // Two threads may create the first stripes of a class at once: the first published set wins, the other is garbage.
        return Interlocked.CompareExchange(ref _classes[sizeClass], created, null) ?? created;
    }
}
