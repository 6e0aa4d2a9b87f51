using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>Trimming: the Gen2 callback, the idle timer, memory pressure and the trim pass itself.</content>
internal sealed partial class StripedPool<T>
{
    private readonly TimeProvider _clock;
    private readonly Func<MemoryPressure> _pressure;
    private readonly long _trimAgeMs;
    private int _trimming;
    private long _tiersReclaimed;

    /// <summary>Live threads' tiers a pass has emptied by the reclaim protocol (tests: whether a run raced it at all).</summary>
    // Volatile: written by the pass in progress, read by tests on other threads.
    internal long TiersReclaimed => Volatile.Read(ref _tiersReclaimed);

    /// <summary>
    /// One trim pass, as docs/design.md ("Trimming") describes: aged items from the cold end of each stripe, and the
    /// tiers of threads idle for half the trim age; everything outside an operation under high pressure or when
    /// <paramref name="releaseAll"/> is set. A timer or gen-2 pass skips while another runs; <paramref name="releaseAll"/> waits.
    /// </summary>
    /// <remarks>
    /// <para>
    /// Reclaiming a live thread's tier. The owner rents from its slot with a plain load and a plain store; a trimmer
    /// that exchanged the slot between the two would hold the item the owner is handing out (a native block freed
    /// while in use; a managed item counted as trimmed and as outstanding). So every owner path that takes from a slot
    /// or magazine, or moves items between them, runs inside an operation mark (<see cref="ThreadCache{T}.TryEnter"/>):
    /// W1, the owner writes its mark Inside; R1, it reads the cache's closed flag, and keeps out of the tier if set; then
    /// works; W2, it writes the mark Active. Both are stores of constants, so the mark costs the hit path no load. A pass
    /// tells an idle thread from a busy one by resetting the mark: R0, it reads the mark, and an Active one it
    /// compare-exchanges to Idle, starting the cache's idle clock; any later owner write moves it off Idle again. A pass
    /// reclaims a cache whose mark has been Idle for at least the tier age (or, under high pressure, is Idle now: read
    /// so at R0 or just reset by this pass) in three more steps: W3, it sets the closed flag; B,
    /// <see cref="Interlocked.MemoryBarrierProcessWide"/>; R2, it reads the mark again, and only if it is still Idle does
    /// it take the tier's items (with exchanges); then, whatever happened, it clears the flag.
    /// </para>
    /// <para>
    /// Why no item is both taken and handed out. B runs a full fence on every thread at some point P of its execution,
    /// such that whatever the thread wrote before P is visible after B, and whatever it reads after P sees what was
    /// written before B. Take any owner operation since the reset. If its W1 came before P, R2 reads that W1 or a later
    /// mark, never Idle, and the pass takes nothing (requiring Idle rather than merely not Inside also covers a discard
    /// callback that re-enters the pool from inside an operation, whose own exit writes Active too early). If W1 came after P, its R1
    /// (later in program order; the JIT does not move a volatile read above a volatile write) reads after P and sees W3,
    /// so that operation, and every later one until the flag clears, keeps out of the tier. Either way, while the pass
    /// takes, the owner is not between a W1 whose R1 saw the tier open and its W2. The mark is one location, so the
    /// pass's compare-exchange to Idle and the owner's stores have one order: a reset never hides an Inside written
    /// before it (the exchange fails), and a W1 after it is seen as above. A store that only fills an empty slot (a return's park, or an object pool's
    /// get parking the second item of a pair) runs without the mark: the pass takes slots with exchanges, so such a store
    /// lands before the exchange (and the item is trimmed, being in the pool) or after it (and stays for the owner). An object pool's lent slot
    /// (<see cref="ThreadCache{T}._lent"/>) is skipped by the walk that takes: the owner lends inside the mark, so a pass that takes reads the flag as the owner left it; the
    /// return of a lent object clears the flag with no mark, which only turns a skipped slot into a parked one, as a park does. The object the owner last left on top of a stripe
    /// (<see cref="ThreadCache{T}._pushedTop"/>) goes with the slot: taken off that stripe under its claim if it is still on top, and only then forgotten, so a return of it
    /// that reads the memo cleared finds it out of the pool, and one that reads it set checks the stripe. Each removal is a move in <see cref="PoolOwner"/>, counted
    /// as trimmed before it closes, so the statistics stay exact; dead threads' tiers go through their finalizers.
    /// </para>
    /// </remarks>
    /// <returns>How many items were released.</returns>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public int Trim(bool releaseAll = false)
    {
        // Settles the Gen2 callback, the timer and explicit callers trimming at once: one pass at a time. Periodic
        // passes skip; an explicit release-everything waits its turn (a pass is short and never blocks on anything).
        if (IsShutDown)
        {
            return 0;
        }

        var spinner = default(SpinWait);
        while (Interlocked.Exchange(ref _trimming, 1) != 0)
        {
            if (!releaseAll)
            {
                return 0;
            }

            spinner.SpinOnce();
        }

        try
        {
            long nowMs = (long)_clock.GetElapsedTime(0).TotalMilliseconds;
            MemoryPressure pressure = releaseAll ? MemoryPressure.High : _pressure();
            if (pressure == MemoryPressure.Low && _budget is not null && _budget.IsUnderPressure)
            {
                // The byte budget is three quarters spent: age items out four times sooner, as under memory pressure.
                pressure = MemoryPressure.Medium;
            }

            bool all = pressure == MemoryPressure.High;
            LogTrimPoll(pressure);
            long ageMs = pressure == MemoryPressure.Medium ? _trimAgeMs / 4 : _trimAgeMs;

            int removed = 0;
            for (int c = 0; c < _classCount; c++)
            {
                int trimmed = GetStripes(c)?.Trim(nowMs, ageMs, all, waitForClaims: releaseAll, _discardItem, _owner) ?? 0;
                ReleaseBudget(c, trimmed);
                removed += trimmed;
            }

            removed += TrimThreadTiers(nowMs, ageMs / 2, all);
            LogTrimmed(removed);
            return removed;
        }
        finally
        {
            // Release: the next trimmer sees this pass's trimmer-owned state.
            Volatile.Write(ref _trimming, 0);
        }
    }

    /// <summary>The thread tiers' part of a pass: reclaims tiers idle for <paramref name="tierAgeMs"/> (all outside an operation when <paramref name="all"/>) under one process-wide barrier,
    /// and asks the others to flush their magazines. The protocol and its proof are on <see cref="Trim"/>.</summary>
    private int TrimThreadTiers(long nowMs, long tierAgeMs, bool all)
    {
        int removed = 0;
        object? own = ThreadCacheTable.Current.Get(_id);
        List<ThreadCache<T>>? closed = null;
        foreach (ThreadCache<T> cache in LiveThreadCaches())
        {
            if (all && ReferenceEquals(own, cache))
            {
                // The trimming thread's own cache has no racing owner, so "all" really means all there.
                removed += EmptyOwnedThreadCache(cache);
                continue;
            }

            // Volatile: R0, the owner's mark, written on its own thread.
            int mark = Volatile.Read(ref cache._mark);
            bool reset = false;
            if (mark is ThreadCache<T>.Active or ThreadCache<T>.PairParked
                && Interlocked.CompareExchange(ref cache._mark, ThreadCache<T>.Idle, mark) == mark)
            {
                // Compare-exchange: an owner entering since R0 has written Inside, which must not be overwritten; the
                // owner's next write of any kind then moves the mark off Idle again, and the idle clock starts here.
                cache._idleSinceMs = nowMs;
                reset = true;
            }

            // Under high pressure Idle now (read so, or reset by this pass); else Idle since a pass at least the tier age ago.
            bool idle = mark == ThreadCache<T>.Idle && nowMs - cache._idleSinceMs >= tierAgeMs;
            if ((all ? reset || mark == ThreadCache<T>.Idle : idle) && CountParked(cache, 0, _classCount) != 0)
            {
                // Volatile: W3, the close; ordered before the barrier below, which publishes it to the owner.
                Volatile.Write(ref cache._closed, 1);
                (closed ??= []).Add(cache);
                continue;
            }

            // Volatile: asks the owner to move its magazines to the stripes, where later passes can age them.
            Volatile.Write(ref cache._flushRequested, 1);
        }

        if (closed is null)
        {
            return removed;
        }

        // B: every owner is now either seen having written its mark since it was reset, or sees its cache closed.
        Interlocked.MemoryBarrierProcessWide();
        try
        {
            foreach (ThreadCache<T> cache in closed)
            {
                // Volatile: R2; still Idle: the owner has not touched the tier since the reset and keeps out until
                // reopened (a mark merely not Inside would not do: a discard callback that re-enters the pool from
                // inside an operation writes Active while the outer operation still runs).
                if (Volatile.Read(ref cache._mark) == ThreadCache<T>.Idle)
                {
                    removed += EmptyOwnedThreadCache(cache);

                    // Volatile: passes never overlap (the trimming flag); the write is for readers on other threads.
                    Volatile.Write(ref _tiersReclaimed, _tiersReclaimed + 1);
                }
            }
        }
        finally
        {
            // Every closed tier reopens, even when a discard callback threw out of the pass (reopening one twice is harmless).
            foreach (ThreadCache<T> cache in closed)
            {
                // Volatile: reopens the tier; release, so the owner's next operation sees the slots as this pass left them.
                Volatile.Write(ref cache._closed, 0);
            }
        }

        return removed;
    }

    /// <summary>Empties a tier nobody else touches now (the trimmer's own, or one the reclaim protocol closed), magazine counts back to zero, so the owner finds it empty rather than full of gaps.</summary>
    private int EmptyOwnedThreadCache(ThreadCache<T> cache)
    {
        int removed = ReleasePushedTop(cache) + EmptyThreadCache(cache);
        if (cache._magazines is not null)
        {
            foreach (Magazine<T>? magazine in cache._magazines)
            {
                if (magazine is not null)
                {
                    magazine.Count = 0;
                }
            }
        }

        return removed;
    }

    /// <summary>Takes and discards every item parked in <paramref name="cache"/>'s slots and magazines (the lent slot excepted).</summary>
    private int EmptyThreadCache(ThreadCache<T> cache) =>
        cache.VisitParked(0, _classCount, this, static (StripedPool<T> pool, ref T? place) => pool.TakeAndDiscard(ref place));

    /// <summary>
    /// The object an idle owner last left on top of a stripe goes with its slot: taken off that stripe if it is still
    /// on top, then forgotten, so neither the stripe nor the memo keeps it, and a later return of it is kept once.
    /// </summary>
    /// <remarks>
    /// Forgetting it while it stayed on top would let a second return of it into the emptied slot keep it twice. A busy
    /// stripe leaves both as they are for a later pass: the object is still in the pool, and a return of it still caught.
    /// The owner, kept out of its tier, may meanwhile return past it (<c>ReturnPastTier</c>) and record a newer memo.
    /// </remarks>
    private int ReleasePushedTop(ThreadCache<T> cache)
    {
        // Volatile: the owner's return past its closed tier may record a newer memo meanwhile, its stripe's index first.
        T? top = Volatile.Read(ref cache._pushedTop);
        StripeSet<T>? stripes = _classes[0];
        if (top is null || stripes is null)
        {
            return 0;
        }

        _owner.BeginMove();
        bool counted = false;
        try
        {
            StripeResult result = stripes.TryTakeTop(cache._pushedTopStripe, top);
            if (result != StripeResult.Contended)
            {
                // Compare-exchange: clears only the memo read above, never a newer one; after the take, so an owner whose
                // return reads it cleared finds the object off the stripe.
                Interlocked.CompareExchange(ref cache._pushedTop, null, top);
            }

            // As for a slot's item: a discard that throws still took the object out of the pool, so it stays counted.
            counted = result == StripeResult.Done;
            if (counted)
            {
                counted = Discard(top);
            }
        }
        finally
        {
            _owner.EndMove(counted ? 1 : 0);
        }

        return counted ? 1 : 0;
    }

    private int TakeAndDiscard(ref T? slot)
    {
        _owner.BeginMove();

        // Exchange: after a shutdown's mark an owner may still empty or fill this slot; whatever we take, only we discard it.
        T? item = Interlocked.Exchange(ref slot, null);
        if (item is null)
        {
            _owner.EndMove(0);
            return 0;
        }

        // After shutdown, an item a raced rent claimed first is that rent's to count (see StripedPool.Shutdown); a
        // discard that throws still took the item out of the pool, so it stays counted.
        bool counted = true;
        try
        {
            counted = Discard(item);
        }
        finally
        {
            _owner.EndMove(counted ? 1 : 0);
        }

        return counted ? 1 : 0;
    }

    private void StartTrimming(TimeSpan interval)
    {
        Gen2GcCallback.Register(
            static target =>
            {
                var pool = (StripedPool<T>)target;
                pool.Trim();
                return !pool.IsShutDown;
            },
            this);
        TrimTimer.Start(this, interval);
    }

    /// <summary>The idle timer: fires every interval while its pool is alive, without keeping it alive.</summary>
    private sealed class TrimTimer : IDisposable
    {
        private readonly WeakReference<StripedPool<T>> _pool;
        private Timer? _timer;

        private TrimTimer(StripedPool<T> pool) => _pool = new WeakReference<StripedPool<T>>(pool);

        public static void Start(StripedPool<T> pool, TimeSpan interval)
        {
            var trimTimer = new TrimTimer(pool);

            // The timer must not capture the creator's ExecutionContext (AsyncLocals) for the pool's lifetime.
            using (ExecutionContext.IsFlowSuppressed() ? null : (IDisposable)ExecutionContext.SuppressFlow())
            {
                trimTimer._timer = new Timer(static state => ((TrimTimer)state!).Tick(), trimTimer, interval, interval);
            }
        }

        /// <summary>Stops the timer.</summary>
        public void Dispose() => _timer?.Dispose();

        private void Tick()
        {
            if (_pool.TryGetTarget(out StripedPool<T>? pool) && !pool.IsShutDown)
            {
                pool.Trim();
            }
            else
            {
                Dispose();
            }
        }
    }
}
