using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The thread-local first level of one pool on one thread: one slot per size class inline in the object, a magazine of
/// a few more items for small classes, and the thread's slow-path counters.
/// </summary>
/// <remarks>
/// Only the owner writes the slots, magazines and counters, with plain stores, so a hit is one load and one store of the
/// slot (in an object pool, of its lent flag); the statistics count only where slow paths already pay. Other threads
/// read it (statistics), ask for a flush (<see cref="_flushRequested"/>), or empty it under the trim reclaim protocol or
/// the shutdown protocol. A dead thread's cache is finalized: parked items discarded and counted as dropped, counts
/// folded into the <see cref="PoolOwner"/>, the slot token given back, in one move a statistics reader retries around.
/// </remarks>
internal sealed class ThreadCache<T> : ThreadCacheBase where T : class
{
    /// <summary>Stripe operations between two reads of the processor id.</summary>
    internal const int HomeRefreshPeriod = 32;

    /// <summary>The rents a thread makes on a cold-starting pool through its stripes: its slots open once it comes back for a second.</summary>
    internal const int ColdRents = 2;

    /// <summary>The slots, one per size class, inline. Mutable: do not make readonly.</summary>
    internal SlotBuffer<T> _slots;

    /// <summary>1 while the object in slot 0 is lent: the owner's last get took it from the slot and left the reference in place, so its return is one store of this flag and no write barrier.
    /// A lent slot is empty to everyone: walks skip it, and only the owner clears it (owner-written).</summary>
    internal int _lent;

    /// <summary>The magazines of the classes that have one (null until first needed).</summary>
    internal Magazine<T>?[]? _magazines;

    /// <summary>This thread's home stripe, as of the last refresh (owner-written).</summary>
    internal int _home;

    /// <summary>Stripe operations left before <see cref="_home"/> is re-read; starts at 0 so the first one reads it.</summary>
    internal int _homeCountdown;

    /// <summary>1 when the trimmer asks the owner to empty its magazines into the stripes (trimmer sets, owner clears).</summary>
    internal int _flushRequested;

    /// <summary><see cref="_mark"/>: no tier operation since a trimmer last saw activity here (trimmer-written, from <see cref="Active"/> or <see cref="PairParked"/>).</summary>
    internal const int Idle = 0;

    /// <summary><see cref="_mark"/>: the owner is inside an operation that may take from its slots or move items to its magazine (owner-written).</summary>
    internal const int Inside = 1;

    /// <summary><see cref="_mark"/>: the owner is outside, and has operated on the tier since a trimmer last set <see cref="Idle"/> (owner-written).</summary>
    internal const int Active = 2;

    /// <summary><see cref="_mark"/>: as <see cref="Active"/>, and the owner's last move on the tier was an object pool's pair pop that parked an object in the slot (owner-written).</summary>
    internal const int PairParked = 3;

    /// <summary>The owner's operation mark: <see cref="Inside"/> during an operation that may take from the slots or move items to the magazines, else <see cref="Active"/>,
    /// <see cref="PairParked"/>, or <see cref="Idle"/> once a trimmer saw the owner outside and nothing has happened since. Owner-written with constants, so an operation's
    /// mark is two stores that depend on no load; the trimmer's one write is a compare-exchange to <see cref="Idle"/>.</summary>
    /// <remarks>See <see cref="TryEnter"/> and the reclaim protocol in <c>StripedPool.Trim</c>. Starts <see cref="Active"/>, so a new cache's idle time counts from the first pass that sees it.</remarks>
    internal int _mark = Active;

    /// <summary>1 while a trimmer reclaims this cache: the owner then keeps out of its slots and magazines (trimmer-written).</summary>
    internal int _closed;

    /// <summary>The trim clock's reading (ms) when a trimmer last set <see cref="_mark"/> to <see cref="Idle"/> (trimmer-owned).</summary>
    internal long _idleSinceMs;

    /// <summary>The object this thread's last push left on top of a stripe (an object pool's return: the returned object, or the one the slot held before it), or null; owner-written,
    /// except that a trimmer reclaiming the idle tier takes the object off that stripe and then clears this. A later return of it is checked against that stripe's top.</summary>
    internal T? _pushedTop;

    /// <summary>The stripe <see cref="_pushedTop"/> went onto (owner-only).</summary>
    internal int _pushedTopStripe;

    /// <summary>The scopes of this pool on this thread, or null until its first (owner-only).</summary>
    internal ScopeLedger? Ledger { get; set; }

    /// <summary>Items created because the pool had none (owner-written).</summary>
    internal long _allocated;

    /// <summary>Returned items the pool did not keep (owner-written).</summary>
    internal long _dropped;

    /// <summary>1 once the finalizer has folded this cache's counts into the pool's totals: readers must skip it.</summary>
    internal int _retired;

    /// <summary>Whether returns may park in the slots and magazines (owner-only): <see cref="_holdsSlotToken"/>, but false until the <see cref="ColdRents"/>th rent with a cold start,
    /// so a thread that rents and returns once and ends leaves its item on the stripes, not stranded in a slot until finalization.</summary>
    internal bool _slotsEnabled;

    /// <summary>Whether returns may park items in this cache's slots (<see cref="_slotsEnabled"/>; owner-only).</summary>
    public bool SlotsEnabled => _slotsEnabled;

    /// <summary>Whether the thread got a thread-slot token when the cache was made (given back when the cache is retired).</summary>
    internal readonly bool _holdsSlotToken;

    /// <summary>The rents the thread has made while its slots were closed by a cold start (owner-only).</summary>
    internal int _coldRents;

    private readonly Action<T>? _discard;

    /// <summary>What <see cref="VisitParked"/> does at one slot or magazine place; returns what to add to the walk's sum.</summary>
    internal delegate int PlaceVisitor<TState>(TState state, ref T? place);

    /// <summary>Creates one thread's cache; <paramref name="holdsSlotToken"/>: returns may park here, <paramref name="coldStart"/>: not before the <see cref="ColdRents"/>th rent;
    /// <paramref name="discard"/>: what the finalizer does with items still parked.</summary>
    public ThreadCache(PoolOwner owner, bool holdsSlotToken, bool coldStart, Action<T>? discard)
        : base(owner)
    {
        _holdsSlotToken = holdsSlotToken;
        _slotsEnabled = holdsSlotToken && !coldStart;
        _discard = discard;
    }

    /// <summary>The calling thread's cache of the pool <paramref name="owner"/> owns, from the thread's memo (<see cref="ThreadCacheTable.Recent"/>), or null.</summary>
    /// <remarks>The entry is this type: its owner is the pool's, and all of a pool's caches hold its item type.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ThreadCache<T>? Recent(PoolOwner owner)
    {
        ThreadCacheBase? cache = ThreadCacheTable.Recent(owner);
        return cache is null ? null : Unsafe.As<ThreadCache<T>>(cache);
    }

    /// <summary>Counts a rent the slots did not serve; a cold cache opens its slots at the <see cref="ColdRents"/>th (owner-only).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void CountRent()
    {
        if (!_slotsEnabled && _holdsSlotToken && ++_coldRents >= ColdRents)
        {
            _slotsEnabled = true;
        }
    }

    /// <summary>Retires the cache of a dead thread (or pool): parked items discarded and counted as dropped, counts folded into the pool's, the slot token given back.</summary>
    ~ThreadCache()
    {
        // No owner runs any more, so plain reads are exact. One move: a statistics reader must not see the parked items
        // gone from here and not yet among the drops.
        Owner.BeginMove();
        int parked = VisitParked(0, SlotBuffer<T>.Length, this, static (ThreadCache<T> cache, ref T? place) => cache.DiscardParked(ref place));

        Owner.Retire(_allocated, _dropped + parked, _holdsSlotToken);

        // Release: a statistics reader that sees the flag also sees the totals above. The pool's weak table still lists
        // a finalized cache until the next collection, and counting it there as well would count it twice.
        Volatile.Write(ref _retired, 1);
        Owner.EndMove(0);
    }

    /// <summary>Enters an operation on the thread tier: sets <see cref="_mark"/> to <see cref="Inside"/>, then reads <see cref="_closed"/>; false (mark <see cref="Active"/> again)
    /// when a trimmer closed the cache.</summary>
    /// <remarks>Every owner take from a slot or magazine, or move between them, runs between a true <see cref="TryEnter"/> and <see cref="Exit"/>; a store that only fills
    /// an empty slot needs no mark, since a trimmer takes slots with an exchange. The proof is on <c>StripedPool.Trim</c>.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEnter()
    {
        // Volatile: W1, written before the read of _closed below in program order; the trimmer's process-wide barrier
        // makes the pair sequentially consistent (see StripedPool.Trim): either it sees this mark, or we see its close.
        Volatile.Write(ref _mark, Inside);

        // Volatile: R1, read after the mark (acquire: the slot's load cannot move above it).
        if (Volatile.Read(ref _closed) == 0)
        {
            return true;
        }

        // Volatile: leaves the operation without having touched the tier.
        Volatile.Write(ref _mark, Active);
        return false;
    }

    /// <summary>Leaves the operation that <see cref="TryEnter"/> entered.</summary>
    // Volatile: W2, release; the slot and magazine stores of the operation are visible before the mark leaves Inside.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Exit() => Volatile.Write(ref _mark, Active);

    /// <summary>The thread tier's one take: the item parked in the slot of <paramref name="sizeClass"/>, or null (owner-only).</summary>
    /// <remarks>Inside an operation mark, so a trimmer reclaiming an idle thread's slots never takes the item being handed out.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T? TryTake(int sizeClass)
    {
        Debug.Assert(_lent == 0, "The size-class road never meets a lent slot: only the object road lends.");
        T? item = null;
        if (TryEnter())
        {
            ref T? slot = ref Slot(sizeClass);
            item = slot;
            slot = null;
            Exit();
        }

        return item;
    }

    /// <summary>Records <paramref name="item"/> as the object this thread's last push left on top of <paramref name="stripe"/> (owner-only).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void RememberPushedTop(T item, int stripe)
    {
        _pushedTopStripe = stripe;

        // Volatile: release after the index; a trimmer reclaiming this tier reads the memo, then the index (see StripedPool.Trim).
        Volatile.Write(ref _pushedTop, item);
    }

    /// <summary>Drops the reference a lent slot still holds, so the slot is empty again (owner-only).</summary>
    /// <remarks>No mark: every walk skips a lent slot, and the flag clears after the slot's store, so a walk that reads it clear finds the slot empty.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void ForgetLent()
    {
        if (_lent != 0)
        {
            Slot(0) = null;

            // Volatile: release after the slot's store; a walk reading the flag clear must not see the lent reference.
            Volatile.Write(ref _lent, 0);
        }
    }

    /// <summary>The thread tier's one park: <paramref name="item"/> into the empty slot of <paramref name="sizeClass"/>; false when taken (owner-only).</summary>
    /// <remarks>A plain store with no mark: only the owner fills a slot, a trimmer only empties one; a disposable facade re-reads the shutdown mark after a park.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryPark(int sizeClass, T item)
    {
        Debug.Assert(_lent == 0, "The size-class road never meets a lent slot: only the object road lends.");
        if (Slot(sizeClass) is not null)
        {
            return false;
        }

        // The slot's address written out again, not kept in a ref local: from an address the JIT sees inside this object
        // it emits the unchecked write barrier, from a ref local the checked one.
        Slot(sizeClass) = item;
        return true;
    }

    /// <summary>The slot of class <paramref name="sizeClass"/>; the caller has checked the class is in range.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref T? Slot(int sizeClass) =>
        ref Unsafe.Add(ref Unsafe.As<SlotBuffer<T>, T?>(ref _slots), sizeClass);

    /// <summary>The one walk of the thread tier, summing what <paramref name="visit"/> returns on the slot and every magazine place of each class in [<paramref name="fromClass"/>, <paramref name="toClass"/>).</summary>
    /// <remarks>Slow paths only (finalizer, trim, shutdown, statistics), where a delegate call per place costs nothing.</remarks>
    internal int VisitParked<TState>(int fromClass, int toClass, TState state, PlaceVisitor<TState> visit)
    {
        int sum = 0;
        for (int c = fromClass; c < toClass; c++)
        {
            // Volatile: a lent slot holds an object its renter has: the owner sets the flag only inside an operation
            // mark, and clears it after the slot's store, so a walk that reads it clear sees the slot's parked object.
            if (c != 0 || Volatile.Read(ref _lent) == 0)
            {
                sum += visit(state, ref Slot(c));
            }

            if (_magazines?[c] is { } magazine)
            {
                for (int i = 0; i < magazine.Items.Length; i++)
                {
                    sum += visit(state, ref magazine.Items[i]);
                }
            }
        }

        return sum;
    }

    private int DiscardParked(ref T? slot)
    {
        // Exchange: a concurrent Clear, Dispose or trimmer may be taking the same item; only one side discards it.
        T? item = Interlocked.Exchange(ref slot, null);
        if (item is null)
        {
            return 0;
        }

        try
        {
            _discard?.Invoke(item);
        }
#pragma warning disable CA1031 // A throwing discard must not take the finalizer thread (and the process) down.
        catch (Exception)
#pragma warning restore CA1031
        {
        }

        return 1;
    }
}

/// <summary>The slots of a thread cache, one per size class, inline in the cache object. Mutable: do not make readonly.</summary>
/// <typeparam name="T">The item type.</typeparam>
[InlineArray(Length)]
internal struct SlotBuffer<T> where T : class
{
    /// <summary>The most size classes a pool may have.</summary>
    public const int Length = 32;

    private T? _element0;
}
