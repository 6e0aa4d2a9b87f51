using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>
/// The object pool's road (one class, no magazines, no byte budget): rent and return specialised so a get or return looks
/// the cache up once, probes the slot once and walks the stripes at most once, whether it hits, misses or finds it full.
/// With <see cref="StripedPoolSettings.ThreadReserve"/>, a thread keeps one more object in a reserve place behind its slot
/// (<see cref="ReservePlace"/>), so a caller holding two at a time never claims a stripe; paired, one holding more moves
/// two objects per claim in both directions. The slot always holds the thread's last return and the reserve the one
/// before, so a get right after a return gives it back and a drain hands objects back warmest first.
/// </content>
internal sealed partial class StripedPool<T>
{
    /// <summary>The calling thread's cache of this pool in <paramref name="caches"/>, or null: checked against its owner, since a dead pool's cache may sit under a reused id.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ThreadCache<T>? CacheOf(ThreadCacheTable caches)
    {
        object? entry = caches.Get(_id);
        return entry is not null && ReferenceEquals(Unsafe.As<ThreadCacheBase>(entry).Owner, _owner)
            ? Unsafe.As<ThreadCache<T>>(entry)
            : null;
    }

    /// <summary>Gets an item: the thread's slot, else its reserve, else its home stripe's top (then the nearest stripes), else a new one.</summary>
    /// <remarks>With <paramref name="pairs"/>, a claim on a stripe holding three or more also takes the item below into the empty slot: a drain claims once per two gets.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T RentObject(ThreadCache<T> cache, bool pairs)
    {
        AssertObjectRoad();

        // A slot read empty stays empty until this thread fills it (a trimmer or a shutdown only ever takes from it), so
        // a get that finds it empty goes straight to the stripes, without the operation mark that taking from it needs.
        if (cache.Slot(0) is not null && cache.TryEnter())
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

        return RentObjectMiss(cache, pairs);
    }

    /// <summary>Returns <paramref name="item"/> into the slot, moving what it displaces one place down (the reserve, then the home stripe, then the nearest with room, else dropped);
    /// <see cref="ReturnResult.Duplicate"/>, pool unchanged, when it holds the item.</summary>
    /// <remarks>With <paramref name="pairs"/>, a full reserve sends its item and the slot's to the stripe under one claim (a refill claims once per two returns); otherwise
    /// the reserve's goes alone.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult ReturnObject(T item, ThreadCache<T> cache, bool pairs)
    {
        AssertObjectRoad();
        // The thread tier's one park: fills an empty slot only, so it needs no operation mark. Not an object the pool
        // holds where the slot's check cannot see it: on top of a stripe after this thread's push, or in the reserve.
        if (cache._slotsEnabled && !ReferenceEquals(item, cache._pushedTop) && !ReferenceEquals(item, cache.Slot(ReservePlace)) && cache.TryPark(0, item))
        {
            return ReturnResult.Stored;
        }

        return ReturnObjectMiss(item, cache, pairs);
    }

    /// <summary>The place behind the slot where an object pool's thread keeps one more object (<see cref="StripedPoolSettings.ThreadReserve"/>): the slot of class 1, which a pool of one class has no other use for.</summary>
    /// <remarks>Only the owner writes it, always inside an operation mark (what goes in comes out of the slot); trim, shutdown and statistics walk it with the slot.</remarks>
    internal const int ReservePlace = 1;

    /// <summary>The get the slot did not serve: the reserve place, then the stripes.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentObjectMiss(ThreadCache<T> cache, bool pairs)
    {
        // As the slot's take in RentObject: a reserve read empty stays empty until this thread fills it.
        if (cache.Slot(ReservePlace) is not null && cache.TryEnter())
        {
            ref T? reserve = ref cache.Slot(ReservePlace);
            T? item = reserve;
            reserve = null;
            cache.Exit();
            if (item is not null)
            {
                return item;
            }
        }

        return RentFromStripes(cache, pairs);
    }

    /// <summary>The get's stripes and allocation, once each (the slot and the reserve were probed, or the cache has just been made).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentFromStripes(ThreadCache<T> cache, bool pairs)
    {
        cache.CountRent();
        StripeSet<T>? stripes = _classes[0];
        if (stripes is not null)
        {
            T? item = stripes.Pop(ref HomeStripe(cache), pairs && cache._slotsEnabled, out T? second);
            if (second is not null)
            {
                // Fills the empty slot: no mark needed. A shutdown that began meanwhile may have drained the slot before
                // this store; the facade's re-check of the shutdown mark drains again.
                cache.Slot(0) = second;
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

    /// <summary>The return the slot did not take: with the reserve empty, the slot's object moves there and the returned one takes the slot; else through the stripes.</summary>
    /// <remarks>So the slot always holds the thread's last return: a get right after a return gives it back, and a drain hands objects back warmest first.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnObjectMiss(T item, ThreadCache<T> cache, bool pairs)
    {
        // Not the object this thread's last push left on top of a stripe: its repeat is seen there.
        if (_threadReserve && cache._slotsEnabled && cache.Slot(ReservePlace) is null && !ReferenceEquals(item, cache._pushedTop) && cache.TryEnter())
        {
            T? parked = cache.Slot(0);
            if (parked is not null && !ReferenceEquals(parked, item))
            {
                cache.Slot(ReservePlace) = parked;
                cache.Slot(0) = item;
                cache.Exit();
                return ReturnResult.Stored;
            }

            cache.Exit();
        }

        return ReturnToStripes(item, cache, pairs);
    }

    /// <summary>The return the slot and the reserve did not take: a full reserve, a repeat of this thread's last pushed top, or a cold or closed cache.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnToStripes(T item, ThreadCache<T> cache, bool pairs)
    {
        if (ReferenceEquals(cache.Slot(ReservePlace), item))
        {
            return ReturnResult.Duplicate;
        }

        if (!cache._slotsEnabled || !cache.TryEnter())
        {
            // Slots never opened, or a trimmer reclaiming this thread's tier: the general return, which handles both.
            return ReturnSlow(0, item, cache);
        }

        try
        {
            StripeSet<T> stripes = _classes[0] ?? CreateStripes(0);
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

            // The returned object takes the slot, and the two it displaces move one place down: the slot's into the
            // reserve, the reserve's onto the stripes (with no reserve, the slot's goes there). Paired, the reserve's and
            // the slot's go onto the stripes together under one claim, leaving the reserve free for the next return. A
            // repeat of the pushed top is pushed itself, where the push sees it, and the slot and the reserve stay.
            ref T? reserve = ref cache.Slot(ReservePlace);
            T? reserved = reserve;
            T pushed = item;
            if (!_threadReserve)
            {
                pushed = parked;
                slot = item;
            }
            else if (reserved is not null)
            {
                ref int home = ref HomeStripe(cache);
                if (pairs && stripes.TryPushPair(ref home, reserved, parked, probe: item))
                {
                    reserve = null;
                    slot = item;
                    cache._pushedTop = parked;
                    cache._pushedTopStripe = home;
                    return ReturnResult.Stored;
                }

                pushed = reserved;
                reserve = parked;
                slot = item;
            }

            ref int stripe = ref HomeStripe(cache);
            StripeResult result = stripes.Push(ref stripe, pushed, item);
            if (result == StripeResult.Done)
            {
                cache._pushedTop = pushed;
                cache._pushedTopStripe = stripe;
                return ReturnResult.Stored;
            }

            if (result == StripeResult.Duplicate)
            {
                // The returned object is on top of a stripe: the slot and the reserve go back as they were.
                slot = parked;
                reserve = reserved;
                return ReturnResult.Duplicate;
            }

            // Every stripe full (the push walked them once): the object meant for them goes.
            return Drop(pushed, 0, cache);
        }
        finally
        {
            cache.Exit();
        }
    }

    /// <summary>The return of this thread's last pushed top into the empty slot goes onto that stripe instead, whose push sees a repeat still on top.</summary>
    /// <remarks>Another thread may have got it since and handed it here: then the stripe keeps it; the slot takes it when every stripe is full.</remarks>
    private static ReturnResult ReturnPushedTop(T item, ThreadCache<T> cache, StripeSet<T> stripes, ref T? slot)
    {
        if (!ReferenceEquals(item, cache._pushedTop))
        {
            // A slot emptied since the inlined path looked (a trimmer): park here.
            slot = item;
            return ReturnResult.Stored;
        }

        int stripe = cache._pushedTopStripe;
        StripeResult result = stripes.Push(ref stripe, item, item);
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
