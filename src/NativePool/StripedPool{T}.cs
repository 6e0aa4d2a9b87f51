using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The NativePool engine: a pool of items of type <typeparamref name="T"/> in one or more size classes, with a
/// thread-local first level in front of per-core stripes.
/// </summary>
/// <remarks>
/// <para>
/// Tiers: the thread's slot, then its magazine (refilled from and spilled to the stripes a batch per claim), then the
/// stripes, then allocation; a return keeps the warmest item in the slot. Statistics come from the slow paths only;
/// pool ids are recycled; an exact bound (<see cref="StripedPoolSettings.RetentionLimit"/>) splits over the stripes
/// with no shared counter. The design notes (docs/design.md, "The thread-local tier") give each in full.
/// </para>
/// <para>
/// Ownership. Every item is, at any instant, in exactly one place: one thread slot or magazine, one stripe slot, or a
/// caller's hands. A thread's slots and magazines are only filled by that thread (the trimmer and disposal only ever
/// remove, never hand out); a stripe slot only under its stripe's claim. So no item can be handed to two renters unless
/// a caller returns it twice; the engine detects the cheap cases of that (the item is in the thread's slot or magazine,
/// or on top of the stripe) and reports <see cref="ReturnResult.Duplicate"/>.
/// </para>
/// </remarks>
internal sealed partial class StripedPool<T> where T : class
{
    private readonly int _id;
    private readonly int _classCount;
    private readonly int _stripeMask;
    private readonly StripeSet<T>?[] _classes;
    private readonly int[] _capacityPerStripe;
    private readonly int[] _magazineCapacity;
    private readonly long[] _itemBytes;
    private readonly Func<int, T> _allocate;
    private readonly Action<T>? _onDiscard;
    private readonly bool _coldThreadStart;
    private readonly Action<T>? _discardItem;
    private readonly PoolOwner _owner;
    private readonly RetentionBudget? _budget;
    private readonly int _retentionLimit;
    private readonly bool _waitsForBusyStripes;
    private readonly WeakList<ThreadCache<T>> _threadCaches = new(trackResurrection: true);

    // 1 from the moment the id is this pool's until it is given back; 0 in a pool whose constructor threw before.
    private int _ownsId;

    /// <summary>Creates a pool whose <paramref name="allocate"/> makes an item of a class on a miss.</summary>
    /// <remarks><paramref name="onDiscard"/> runs on every item let go (dropped, trimmed, parked on a dead thread); every thread cache keeps it, so it must not capture an object that should be collectable.</remarks>
    public StripedPool(StripedPoolSettings settings, Func<int, T> allocate, Action<T>? onDiscard = null)
    {
        if (settings.ClassCount > SlotBuffer<T>.Length)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(settings), $"A pool has at most {SlotBuffer<T>.Length} size classes.");
        }

        _name = settings.Name ?? "";
        _kind = settings.Kind ?? "object";
        _classCount = settings.ClassCount;
        _stripeMask = settings.StripeCount - 1;
        _classes = new StripeSet<T>?[_classCount];
        _capacityPerStripe = settings.CapacityPerStripe;
        _magazineCapacity = settings.MagazineCapacity ?? new int[_classCount];
        _itemBytes = settings.ItemBytes ?? new long[_classCount];
        _allocate = allocate;
        _onDiscard = onDiscard;
        _coldThreadStart = settings.ColdThreadStart;
        _discardItem = onDiscard is null ? null : DiscardStripeItem;
        _retentionLimit = settings.RetentionLimit;
        _waitsForBusyStripes = settings.WaitsForBusyStripes;
        Debug.Assert(
            _retentionLimit < 0 || (_classCount == 1 && _magazineCapacity[0] == 0 && _retentionLimit <= (long)settings.StripeCount * _capacityPerStripe[0]),
            "An exact limit is the object pools': one class, no magazine, no more than the stripes can hold.");
        _budget = settings.Budget;
        _owner = new PoolOwner(settings.ThreadSlotTokens);
        _clock = settings.Clock;
        _pressure = settings.Pressure;
        _trimAgeMs = (long)settings.TrimAge.TotalMilliseconds;
        try
        {
            _id = ThreadCacheTable.AllocatePoolId();
        }
        catch
        {
            // No id: the finalizer has nothing to give back (and must not give back id 0, which is not ours).
            GC.SuppressFinalize(this);
            throw;
        }

        _ownsId = 1;
        if (settings.TrimmingEnabled)
        {
            StartTrimming(settings.TrimInterval);
        }
    }

    /// <summary>Releases what the stripes and live threads' caches still hold (blocks freed, budget given back), then the id.</summary>
    /// <remarks>Thread tables and facade memos keep a dropped pool's caches reachable for as long as such a thread runs. The caches are emptied with the trimmer's
    /// reclaim protocol, so an owner still inside its last operation keeps its cache and nothing is taken from under it.</remarks>
    ~StripedPool()
    {
        try
        {
            if (_classes is not null)
            {
                Trim(releaseAll: true);
            }
        }
#pragma warning disable CA1031 // A throwing discard must not take the finalizer thread (and the process) down.
        catch (Exception)
#pragma warning restore CA1031
        {
        }
        finally
        {
            _threadCaches.Release();
            ReleaseId();
        }
    }

    /// <summary>The pool's id: its index in every thread's cache table, unique among live pools.</summary>
    public int Id => _id;

    /// <summary>The shared state this pool's thread caches name as their owner.</summary>
    public PoolOwner Owner => _owner;

    /// <summary>The number of size classes.</summary>
    public int ClassCount => _classCount;

    /// <summary>The number of stripes per class.</summary>
    public int StripeCount => _stripeMask + 1;

    /// <summary>Items one stripe of class <paramref name="sizeClass"/> holds.</summary>
    public int CapacityPerStripe(int sizeClass) => _capacityPerStripe[sizeClass];

    /// <summary>Items one thread's magazine of class <paramref name="sizeClass"/> holds beyond its slot.</summary>
    public int MagazineCapacity(int sizeClass) => _magazineCapacity[sizeClass];

    /// <summary>Rents an item of class <paramref name="sizeClass"/> (already validated), allocating on a miss.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T Rent(int sizeClass) => Rent(sizeClass, ThreadCacheTable.Current);

    /// <summary>Rents an item of class <paramref name="sizeClass"/>; <paramref name="caches"/> is <see cref="ThreadCacheTable.Current"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T Rent(int sizeClass, ThreadCacheTable caches)
    {
        Debug.Assert((uint)sizeClass < (uint)_classCount, "The facade maps every rent to one of the pool's size classes before it calls the engine.");
        ThreadCache<T>? cache = CacheOf(caches);
        if (cache is not null)
        {
            return cache.TryTake(sizeClass) ?? RentSlow(sizeClass, cache);
        }

        return RentSlow(sizeClass, CreateCache());
    }

    /// <summary>Returns <paramref name="item"/> of class <paramref name="sizeClass"/> (already validated).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult Return(int sizeClass, T item) => Return(sizeClass, item, ThreadCacheTable.Current);

    /// <summary>Returns <paramref name="item"/> of class <paramref name="sizeClass"/>; <paramref name="caches"/> is <see cref="ThreadCacheTable.Current"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult Return(int sizeClass, T item, ThreadCacheTable caches)
    {
        Debug.Assert((uint)sizeClass < (uint)_classCount, "The facade maps every return to one of the pool's size classes before it calls the engine.");
        Debug.Assert(item is not null, "The facade rejects a null return before it calls the engine.");
        ThreadCache<T>? cache = CacheOf(caches);
        if (cache is not null)
        {
            return cache._slotsEnabled && cache.TryPark(sizeClass, item) ? ReturnResult.Stored : ReturnSlow(sizeClass, item, cache);
        }

        return ReturnSlow(sizeClass, item, CreateCache());
    }

    /// <summary>A rent the facade's inlined take did not serve: <paramref name="cache"/> is looked up (or created) only when the facade had none, and handed back for it to publish;
    /// the slot is probed only when the facade did not (<paramref name="slotProbed"/>).</summary>
    public T RentMiss(int sizeClass, ref ThreadCache<T>? cache, bool slotProbed)
    {
        ThreadCache<T> held = cache ??= GetOrCreateCache();
        return (slotProbed || !held._slotsEnabled ? null : held.TryTake(sizeClass)) ?? RentSlow(sizeClass, held);
    }

    /// <summary>A return a facade's inlined park did not take, with the facade's cache of the thread (as <see cref="RentMiss"/>).</summary>
    public ReturnResult ReturnMiss(int sizeClass, T item, ref ThreadCache<T>? cache) =>
        ReturnSlow(sizeClass, item, cache ??= GetOrCreateCache());

    /// <summary>Counts a rent the pool served outside its classes (an oversize array).</summary>
    public void RecordUnpooledRent() => OwnerCounter.Increment(ref GetOrCreateCache()._allocated);

    /// <summary>Counts a return the pool does not keep by design (an oversize array, a rejected object).</summary>
    public void RecordUnpooledReturn() => OwnerCounter.Increment(ref GetOrCreateCache()._dropped);

    /// <summary>Counts an item handed out that will never come back (its holder was collected with it) as dropped.</summary>
    public void RecordAbandoned() => OwnerCounter.Increment(ref GetOrCreateCache()._dropped);

    /// <summary>The stripes of class <paramref name="sizeClass"/>, or null when nothing of that class was ever returned.</summary>
    internal StripeSet<T>? GetStripes(int sizeClass) => Volatile.Read(ref _classes[sizeClass]);

    /// <summary>Gives the id back for reuse (disposal or finalizer), once, and only if the pool got one (its constructor may have thrown first); the pool must not rent or return afterwards.</summary>
    public void ReleaseId()
    {
        // Interlocked: Dispose and the finalizer (or two Dispose calls) may both get here; the id goes back once.
        if (Interlocked.Exchange(ref _ownsId, 0) == 1)
        {
            ThreadCacheTable.ReleasePoolId(_id);
        }
    }

    /// <summary>Every rent the thread's slot does not serve; a cold-started cache counts it towards opening its slots.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentSlow(int sizeClass, ThreadCache<T> cache)
    {
        T item = RentBeyondSlot(sizeClass, cache);
        cache.CountRent();
        return item;
    }

    private T RentBeyondSlot(int sizeClass, ThreadCache<T> cache)
    {
        int capacity = _magazineCapacity[sizeClass];
        StripeSet<T>? set = _classes[sizeClass];

        bool throughMagazine = capacity != 0 && cache._slotsEnabled;

        // Volatile: the trimmer raises the flag from its own thread; the owner honours it on its next slow operation.
        bool flush = Volatile.Read(ref cache._flushRequested) != 0;

        // Only a rent that touches the magazines enters the tier (a rent straight from the stripes, the object pools'
        // and the large classes', needs no mark). A cache a trimmer is reclaiming is left alone: the rent goes to the
        // stripes, as with no thread tier.
        if ((throughMagazine || flush) && cache.TryEnter())
        {
            T? item = null;
            try
            {
                if (flush)
                {
                    FlushMagazines(cache);

                    // The flush may have created this class's stripes: read them again, or the rent misses what it moved.
                    set = _classes[sizeClass];
                }

                if (throughMagazine)
                {
                    item = RentThroughMagazine(sizeClass, cache, capacity, set);
                }
            }
            finally
            {
                cache.Exit();
            }

            if (item is not null)
            {
                return item;
            }

            if (throughMagazine)
            {
                // The refill found the stripes empty (or busy for all its rounds): nothing to pop one at a time.
                return Allocate(sizeClass, cache);
            }
        }

        if (set is not null)
        {
            T? item = set.Pop(ref HomeStripe(cache));
            if (item is not null)
            {
                ReleaseBudget(sizeClass, 1);
                return item;
            }
        }

        return Allocate(sizeClass, cache);
    }

    /// <summary>Pops the magazine, refilling it from the stripes (half a magazine per claim) when it is empty; null when both are.</summary>
    private T? RentThroughMagazine(int sizeClass, ThreadCache<T> cache, int capacity, StripeSet<T>? set)
    {
        Magazine<T> magazine = GetMagazine(cache, sizeClass, capacity);
        T? item = magazine.Pop();
        if (item is not null || set is null)
        {
            return item;
        }

        // One claim refills up to half a magazine; the warmest item comes last and is handed out.
        int moved = set.PopBatch(HomeStripe(cache), magazine.Items.AsSpan(0, BatchSize(capacity)));
        if (moved == 0)
        {
            return null;
        }

        ReleaseBudget(sizeClass, moved);
        magazine.Count = moved;
        return magazine.Pop();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnSlow(int sizeClass, T item, ThreadCache<T> cache)
    {
        Debug.Assert(cache._lent == 0, "Only the object road lends, and it never takes the general return.");
        if (!cache._slotsEnabled)
        {
            // Slots never opened (no thread tier, no slot token, or a cold start): slots and magazines are empty.
            return KeepOnStripes(sizeClass, item, item, cache, swapped: false);
        }

        if (!cache.TryEnter())
        {
            // A trimmer is reclaiming this thread's tier: the item goes to the stripes, as with no thread tier. The
            // cheap double-return check still looks at the slot (a read; only the owner and the trimmer write it).
            return ReferenceEquals(Volatile.Read(ref cache.Slot(sizeClass)), item)
                ? ReturnResult.Duplicate
                : KeepOnStripes(sizeClass, item, item, cache, swapped: false);
        }

        try
        {
            return ReturnThroughTier(sizeClass, item, cache);
        }
        finally
        {
            cache.Exit();
        }
    }

    /// <summary>The slow return inside an operation on the thread tier: the slot, the magazine, then the stripes.</summary>
    private ReturnResult ReturnThroughTier(int sizeClass, T item, ThreadCache<T> cache)
    {
        // Volatile: the trimmer raises the flag from its own thread; the owner honours it on its next slow operation.
        if (Volatile.Read(ref cache._flushRequested) != 0)
        {
            FlushMagazines(cache);
        }

        ref T? slot = ref cache.Slot(sizeClass);
        T? parked = slot;
        if (ReferenceEquals(parked, item))
        {
            return ReturnResult.Duplicate;
        }

        if (parked is null && cache._slotsEnabled)
        {
            // A cache made by this very return, or a slot emptied since the fast path looked: park here.
            slot = item;
            return ReturnResult.Stored;
        }

        int capacity = _magazineCapacity[sizeClass];
        if (capacity != 0 && cache._slotsEnabled)
        {
            return ReturnToMagazine(sizeClass, item, cache, capacity);
        }

        // No magazine: keep the warmest item in the slot, and send the one parked there (or this one) to the stripes.
        if (parked is not null && cache._slotsEnabled)
        {
            slot = item;
            return KeepOnStripes(sizeClass, parked, item, cache, swapped: true);
        }

        return KeepOnStripes(sizeClass, item, item, cache, swapped: false);
    }

    /// <summary>Pushes <paramref name="toStripes"/> onto the stripes, or drops it when they (or the budget) are full.</summary>
    /// <remarks>When <paramref name="swapped"/>, it came out of the slot, which now holds <paramref name="item"/>; a double return gives the slot back, leaving the pool as it was.</remarks>
    private ReturnResult KeepOnStripes(int sizeClass, T toStripes, T item, ThreadCache<T> cache, bool swapped)
    {
        StripeResult result;
        if (TakeBudget(sizeClass, 1) == 0)
        {
            // The byte budget is spent, so nothing is pushed (nor checked there): a double return must still not drop
            // (and discard) the copy that is kept.
            result = _classes[sizeClass]?.IsOnTopOfAnyStripe(item) == true ? StripeResult.Duplicate : StripeResult.Full;
        }
        else
        {
            StripeSet<T> set = _classes[sizeClass] ?? CreateStripes(sizeClass);
            result = set.Push(ref HomeStripe(cache), toStripes, item);
            if (result == StripeResult.Done)
            {
                return ReturnResult.Stored;
            }

            ReleaseBudget(sizeClass, 1);
        }

        if (result != StripeResult.Duplicate)
        {
            return Drop(toStripes, sizeClass, cache);
        }

        if (swapped)
        {
            cache.Slot(sizeClass) = toStripes;
        }

        return ReturnResult.Duplicate;
    }

    /// <summary>Takes the byte budget's share of <paramref name="count"/> items about to go onto the stripes; returns how many may (all with no budget or 0-byte items).</summary>
    private int TakeBudget(int sizeClass, int count)
    {
        long itemBytes = _itemBytes[sizeClass];
        return _budget is null || itemBytes == 0 || count == 0 ? count : _budget.Take(itemBytes, count);
    }

    /// <summary>Gives back the byte budget's share of <paramref name="count"/> items of class <paramref name="sizeClass"/> that left the stripes.</summary>
    internal void ReleaseBudget(int sizeClass, int count)
    {
        if (_budget is not null && count != 0)
        {
            _budget.Release(count * _itemBytes[sizeClass]);
        }
    }

    /// <summary>The thread's home stripe: its processor id, re-read every <see cref="ThreadCache{T}.HomeRefreshPeriod"/> operations; between reads a stripe that served moves it there.</summary>
    /// <remarks><see cref="Thread.GetCurrentProcessorId"/> is a hint anyway, costs as much as a stripe operation on some VMs, and a thread rarely changes cores within a few dozen operations.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ref int HomeStripe(ThreadCache<T> cache)
    {
        if (--cache._homeCountdown < 0)
        {
            RefreshHome(cache);
        }

        return ref cache._home;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RefreshHome(ThreadCache<T> cache)
    {
        cache._homeCountdown = ThreadCache<T>.HomeRefreshPeriod;
        cache._home = Thread.GetCurrentProcessorId() & _stripeMask;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T Allocate(int sizeClass, ThreadCache<T> cache)
    {
        // Counted only once the allocation succeeded: a rent that throws hands nothing out.
        T item = _allocate(sizeClass);
        OwnerCounter.Increment(ref cache._allocated);
        LogAllocated(item, sizeClass);
        return item;
    }

    /// <summary>The calling thread's cache of this pool, created on its first use.</summary>
    public ThreadCache<T> GetOrCreateCache() => CacheOf(ThreadCacheTable.Current) ?? CreateCache();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private ThreadCache<T> CreateCache()
    {
        bool holdsSlotToken = _owner.TryTakeThreadSlotToken();
        var cache = new ThreadCache<T>(_owner, holdsSlotToken, _coldThreadStart, _onDiscard);
        _threadCaches.Add(cache);

        // Replaces a stale entry of a dead pool that had this id, if any: that cache becomes garbage and is finalized.
        ThreadCacheTable.Set(_id, cache);
        return cache;
    }

    /// <summary>The thread caches neither collected nor retired: a retired cache's finalizer already discarded and counted what it held, so no walk may again.</summary>
    private List<ThreadCache<T>> LiveThreadCaches()
    {
        List<ThreadCache<T>> caches = _threadCaches.Snapshot();

        // Volatile: the finalizer sets the flag once the counts are in the owner's retired totals (release).
        caches.RemoveAll(static cache => Volatile.Read(ref cache._retired) != 0);
        return caches;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private StripeSet<T> CreateStripes(int sizeClass)
    {
        var created = new StripeSet<T>(_stripeMask + 1, _capacityPerStripe[sizeClass], _retentionLimit, _waitsForBusyStripes);

        // Two threads may create the first stripes of a class at once: the first published set wins, the other is garbage.
        return Interlocked.CompareExchange(ref _classes[sizeClass], created, null) ?? created;
    }
}
