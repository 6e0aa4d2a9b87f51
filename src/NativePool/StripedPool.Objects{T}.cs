using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>
/// The road of a pool of one class with no magazines and no byte budget (the object pool): the general rent and return
/// with their misses specialised, so that a get or a return looks the thread's cache up once, probes the slot once and
/// walks the stripes at most once, whether it hits, misses, or finds the pool full.
/// </content>
internal sealed partial class StripedPool<T>
{
    /// <summary>
    /// The calling thread's cache of this pool in <paramref name="caches"/> (<see cref="ThreadCacheTable.Current"/>), or
    /// null when the thread has none yet: the table entry of this pool's id, checked against its owner (a dead pool's
    /// cache may still sit under a reused id).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ThreadCache<T>? CacheOf(ThreadCaches caches)
    {
        object? entry = caches.Get(_id);
        return entry is not null && ReferenceEquals(Unsafe.As<ThreadCacheBase>(entry).Owner, _owner)
            ? Unsafe.As<ThreadCache<T>>(entry)
            : null;
    }

    /// <summary>
    /// Gets an item: the thread's slot, else the top of its home stripe (then the nearest stripes that hold items), else
    /// a new one; <paramref name="cache"/> is what <see cref="CacheOf"/> read, null to create the thread's cache.
    /// </summary>
    /// <param name="cache">The thread's cache of this pool, or null.</param>
    /// <param name="pairs">
    /// Whether a claim that finds the stripe holding three or more also takes the item below the top into the empty slot,
    /// so a drain claims a stripe once per two gets.
    /// </param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T RentObject(ThreadCache<T>? cache, bool pairs)
    {
        AssertObjectRoad();

        // A slot read empty stays empty until this thread fills it (a trimmer or a shutdown only ever takes from it), so
        // a get that finds it empty goes straight to the stripes, without the operation mark that taking from it needs.
        if (cache is not null && cache.Slot(0) is not null && cache.TryEnter())
        {
            ref T? slot = ref cache.Slot(0);
            T? item = slot;
            slot = null;
            cache.Exit();
            if (item is not null)
            {
                return item;
            }
        }

        return RentObjectMiss(cache ?? CreateCache(), pairs);
    }

    /// <summary>
    /// Returns <paramref name="item"/>: into the thread's empty slot, else onto its home stripe (then the nearest with
    /// room), else dropped; <see cref="ReturnResult.Duplicate"/>, with the pool unchanged, when the pool sees it already
    /// holds the item (in the slot, or on top of the stripe the push meets).
    /// </summary>
    /// <param name="item">The item, not null.</param>
    /// <param name="cache">What <see cref="CacheOf"/> read, or null to create the thread's cache.</param>
    /// <param name="pairs">
    /// Whether a return that finds the slot taken moves the parked item and this one to the stripe under one claim,
    /// leaving the slot empty for the next return (a refill claims a stripe once per two returns); otherwise this one takes
    /// the slot and the parked one goes, so the item a thread returned last is always the one in its slot.
    /// </param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult ReturnObject(T item, ThreadCache<T>? cache, bool pairs)
    {
        AssertObjectRoad();
        if (cache is not null && cache._slotsEnabled)
        {
            ref T? slot = ref cache.Slot(0);
            if (slot is null && !ReferenceEquals(item, cache._pushedTop))
            {
                // Fills an empty slot only: needs no operation mark (a trimmer takes slots with an exchange).
                slot = item;
                return ReturnResult.Stored;
            }
        }

        return ReturnObjectMiss(item, cache ?? CreateCache(), pairs);
    }

    /// <summary>The get's stripes and allocation, once each (the slot was probed, or the cache has just been made).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentObjectMiss(ThreadCache<T> cache, bool pairs)
    {
        cache.CountRent();
        StripeSet<T>? stripes = _classes[0];
        if (stripes is not null)
        {
            T? item = stripes.PopTop(ref HomeStripe(cache), pairs && cache._slotsEnabled, out T? second);
            if (second is not null)
            {
                // Fills the empty slot: no mark needed. A shutdown that began meanwhile may have drained the slot before
                // this store; the facade's re-check of the shutdown mark drains again.
                cache.Slot(0) = second;
                cache._pairPopOperation = cache._operation;
            }

            if (item is not null)
            {
                if (ReferenceEquals(item, cache._pushedTop))
                {
                    // The object this thread last pushed came back to it: a later return of it is an ordinary one.
                    cache._pushedTop = null;
                }

                return item;
            }
        }

        return Allocate(0, cache);
    }

    /// <summary>
    /// The return the slot did not take: the object this thread's last push left on top of a stripe (pushed onto that
    /// stripe, which sees a repeat), a slot that is taken (the pair move), a cold or closed cache, or no stripes yet.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnObjectMiss(T item, ThreadCache<T> cache, bool pairs)
    {
        StripeSet<T>? stripes = _classes[0];
        if (!cache._slotsEnabled || stripes is null || !cache.TryEnter())
        {
            // Slots never opened, the first return to the stripes, or a trimmer reclaiming this thread's tier: the
            // general return, which handles each.
            return ReturnSlow(0, item, cache);
        }

        try
        {
            ref T? slot = ref cache.Slot(0);
            T? parked = slot;
            if (ReferenceEquals(parked, item))
            {
                return ReturnResult.Duplicate;
            }

            if (parked is null)
            {
                return ReturnPushedTop(item, cache, stripes, ref slot);
            }

            // Paired (nobody observes the pool), both go under one claim, the returned one on top, and the slot is left
            // empty for the next return; but when the slot still holds what this thread's last get popped into it (the
            // mark moved by this operation's entry alone), the thread gets and returns one object at a time: only the
            // returned one goes, and the next get and return stay on the slot. Unpaired, the returned object takes the
            // slot and the parked one goes, so a misuse report can say exactly which thread gets it next.
            T pushed = parked;
            if (pairs)
            {
                if (cache._operation == cache._pairPopOperation + 1)
                {
                    pushed = item;
                }
                else
                {
                    slot = null;
                    ref int home = ref HomeStripe(cache);
                    if (stripes.TryPushPair(ref home, parked, item))
                    {
                        cache._pushedTop = item;
                        cache._pushedTopStripe = home;
                        return ReturnResult.Stored;
                    }
                }
            }

            slot = ReferenceEquals(pushed, item) ? parked : item;
            ref int stripe = ref HomeStripe(cache);
            StripeResult result = stripes.PushTop(ref stripe, pushed, item);
            if (result == StripeResult.Done)
            {
                if (ReferenceEquals(pushed, item))
                {
                    cache._pushedTop = item;
                    cache._pushedTopStripe = stripe;
                }

                return ReturnResult.Stored;
            }

            if (result == StripeResult.Duplicate)
            {
                // The returned object is on top of a stripe: put the slot back as it was.
                slot = parked;
                return ReturnResult.Duplicate;
            }

            // Every stripe full (the push walked them once): the returned object keeps the slot, the parked one goes.
            slot = item;
            return Drop(parked, 0, cache);
        }
        finally
        {
            cache.Exit();
        }
    }

    /// <summary>
    /// The return of the object this thread's last push left on top of a stripe, into the empty slot: pushed onto that
    /// stripe instead, whose push sees it still on top when it is returned twice in a row, or keeps it when another
    /// thread got it since and handed it to this one; the slot takes it when every stripe is full.
    /// </summary>
    private static ReturnResult ReturnPushedTop(T item, ThreadCache<T> cache, StripeSet<T> stripes, ref T? slot)
    {
        if (!ReferenceEquals(item, cache._pushedTop))
        {
            // A slot emptied since the inlined path looked (a trimmer): park here.
            slot = item;
            return ReturnResult.Stored;
        }

        int stripe = cache._pushedTopStripe;
        StripeResult result = stripes.PushTop(ref stripe, item, item);
        if (result == StripeResult.Duplicate)
        {
            return ReturnResult.Duplicate;
        }

        cache._pushedTop = null;
        if (result != StripeResult.Done)
        {
            slot = item;
        }

        return ReturnResult.Stored;
    }

    [Conditional("DEBUG")]
    private void AssertObjectRoad() =>
        Debug.Assert(_classCount == 1 && _magazineCapacity[0] == 0 && _budget is null, "The object road serves pools of one class with no magazines and no byte budget.");
}
