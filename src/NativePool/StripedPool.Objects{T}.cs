using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>
/// The object pool's road (one class, no magazines, no byte budget): rent and return specialised so a get or return looks
/// the cache up once, probes the slot once and walks the stripes at most once, whether it hits, misses or finds it full.
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

    /// <summary>Gets an item: the thread's slot, else its home stripe's top (then the nearest stripes), else a new one.</summary>
    /// <remarks>
    /// <para>A get from the slot lends the slot's object: the reference stays in the slot and <see cref="ThreadCache{T}._lent"/> says it is out, so the
    /// return of that object is one flag store, with no write barrier. A lent slot is empty to everybody else (trim, shutdown, statistics and the finalizer
    /// skip it), and only the owner clears it: its next get or return that the flag does not serve drops the reference first.</para>
    /// <para>With <paramref name="pairs"/>, a claim on a stripe holding three or more also takes the item below into the empty slot: a drain claims once per two gets.</para>
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T RentObject(ThreadCache<T> cache, bool pairs)
    {
        AssertObjectRoad();

        // Only this thread fills the slot or lends its object (a trimmer or a shutdown only ever takes a parked one), so a
        // get that finds nothing to lend goes straight to the stripes, without the operation mark that lending needs.
        if (cache._lent == 0 && cache.Slot(0) is not null && cache.TryEnter())
        {
            // Inside the mark, as a take is: a trimmer never takes the object being lent. A shutdown's drain may have
            // taken it since the check (null: a miss, the lent flag then covers an empty slot; else the facade's re-check
            // sees the mark).
            T? item = cache.Slot(0);
            cache._lent = 1;
            cache.Exit();
            if (item is not null)
            {
                return item;
            }
        }

        return RentObjectMiss(cache, pairs);
    }

    /// <summary>Returns <paramref name="item"/>: the slot's lent object back, or into the empty slot, else onto the home stripe (then the nearest with room), else dropped;
    /// <see cref="ReturnResult.Duplicate"/>, pool unchanged, when it holds the item.</summary>
    /// <remarks>With <paramref name="pairs"/>, a taken slot sends its item and this one to the stripe under one claim (a refill claims once per two returns); otherwise
    /// this one takes the slot, so the slot always holds the thread's last return.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReturnResult ReturnObject(T item, ThreadCache<T> cache, bool pairs)
    {
        AssertObjectRoad();
        T? parked = cache.Slot(0);
        if (cache._lent != 0)
        {
            if (ReferenceEquals(parked, item))
            {
                // Volatile: the lent object is parked again, with no mark (a walk that reads the flag clear takes it, as it
                // would take a park); the facade's re-check of the shutdown mark follows.
                Volatile.Write(ref cache._lent, 0);
                return ReturnResult.Stored;
            }
        }
        else if (parked is null && cache._slotsEnabled && !ReferenceEquals(item, cache._pushedTop))
        {
            // The thread tier's one park: fills an empty slot only, so it needs no operation mark.
            cache.Slot(0) = item;
            return ReturnResult.Stored;
        }

        return ReturnObjectMiss(item, cache, pairs);
    }

    /// <summary>The get's stripes and allocation, once each (the slot was probed, or the cache has just been made).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T RentObjectMiss(ThreadCache<T> cache, bool pairs)
    {
        cache.CountRent();
        cache.ForgetLent();
        StripeSet<T>? stripes = _classes[0];
        if (stripes is not null)
        {
            // A slot still holding an object here is being reclaimed by a trimmer (the get's mark failed): no pair into it.
            bool pair = pairs && cache._slotsEnabled && cache.Slot(0) is null;
            T? item = stripes.Pop(ref HomeStripe(cache), pair, out T? second);
            if (second is not null)
            {
                // Fills the empty slot: no mark needed. A shutdown that began meanwhile may have drained the slot before
                // this store; the facade's re-check of the shutdown mark drains again.
                cache.Slot(0) = second;

                // Volatile: release after the slot's store, outside any operation; to a trimmer it is activity (not
                // Idle), so a pass that reads it reclaims nothing of this tier.
                Volatile.Write(ref cache._mark, ThreadCache<T>.PairParked);
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

    /// <summary>The return the slot did not take: a repeat of this thread's last pushed top, a taken slot (the pair move), or a cold or closed cache.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ReturnResult ReturnObjectMiss(T item, ThreadCache<T> cache, bool pairs)
    {
        // The pool's first return to the stripes makes them, on this road like every later one.
        StripeSet<T> stripes = _classes[0] ?? CreateStripes(0);

        // Volatile: a trimmer's reclaim takes the object off its stripe before it clears the memo (see TrimThreadTiers),
        // so a null read here means the object is out of the pool.
        T? pushedTop = Volatile.Read(ref cache._pushedTop);
        if (ReferenceEquals(item, pushedTop))
        {
            // A return of the object this thread last left on top of a stripe: checked on that stripe, wherever the
            // home has moved since and however busy the stripe is; off the top, it was handed out again, and this
            // return is an ordinary one.
            if (stripes.IsOnTop(cache._pushedTopStripe, item))
            {
                return ReturnResult.Duplicate;
            }

            cache._pushedTop = null;
        }

        cache.ForgetLent();

        // Read before the mark moves: the slot still holds what this thread's last get popped into it when no tier
        // operation came between (owner-only; a trimmer's reset to Idle only costs this return its single push).
        bool slotFromPairPop = cache._mark == ThreadCache<T>.PairParked;
        if (!cache._slotsEnabled || !cache.TryEnter())
        {
            return ReturnPastTier(item, cache, stripes);
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
                // A slot emptied since the inlined path looked (a trimmer), or one that was lent: park here.
                slot = item;
                return ReturnResult.Stored;
            }

            // Paired, both go under one claim (the returned one on top), leaving the slot for the next return, unless it
            // holds what this thread's last get popped into it (one object at a time: only the returned one goes).
            // Unpaired, the returned object takes the slot, so a misuse report can say which thread gets it next.
            T pushed = parked;
            if (pairs)
            {
                if (slotFromPairPop)
                {
                    pushed = item;
                }
                else
                {
                    slot = null;
                    ref int home = ref HomeStripe(cache);
                    if (stripes.TryPushPair(ref home, parked, item))
                    {
                        cache.RememberPushedTop(item, home);
                        return ReturnResult.Stored;
                    }
                }
            }

            slot = ReferenceEquals(pushed, item) ? parked : item;
            ref int stripe = ref HomeStripe(cache);
            StripeResult result = stripes.Push(ref stripe, pushed, item);
            if (result == StripeResult.Done)
            {
                // Whichever object went on top (the returned one, or the parked one that left the slot to it), a later
                // return of it into the empty slot goes through this stripe, so returning it twice is still caught.
                cache.RememberPushedTop(pushed, stripe);
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

    /// <summary>The return while the thread's tier is closed to it (slots never opened, or a trimmer reclaiming them): onto the stripes alone, remembered as this
    /// thread's last pushed top, so a second return of it is still caught once the tier reopens with its slot emptied.</summary>
    private ReturnResult ReturnPastTier(T item, ThreadCache<T> cache, StripeSet<T> stripes)
    {
        // Volatile: a reclaiming trimmer may be emptying the slot; the cheap check still reads it.
        if (ReferenceEquals(Volatile.Read(ref cache.Slot(0)), item))
        {
            return ReturnResult.Duplicate;
        }

        ref int home = ref HomeStripe(cache);
        StripeResult result = stripes.Push(ref home, item, item);
        if (result == StripeResult.Done)
        {
            cache.RememberPushedTop(item, home);
            return ReturnResult.Stored;
        }

        return result == StripeResult.Duplicate ? ReturnResult.Duplicate : Drop(item, 0, cache);
    }

    [Conditional("DEBUG")]
    private void AssertObjectRoad() =>
        Debug.Assert(_classCount == 1 && _magazineCapacity[0] == 0 && _budget is null, "The object road serves pools of one class with no magazines and no byte budget.");
}
