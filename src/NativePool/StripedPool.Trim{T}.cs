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

    /// <summary>
    /// One trim pass: items untouched for the trim age (a quarter of it under medium memory pressure) go from the cold
    /// end of each stripe, half at a time. Under high pressure or when <paramref name="releaseAll"/> is set, every
    /// stripe is emptied and so are the calling thread's slots and magazines. Other threads are asked to empty their
    /// magazines into the stripes on their next slow-path operation; their slots are never taken from (see the remarks).
    /// Never runs on a rent or return. A timer or gen-2 pass skips when another pass is running;
    /// <paramref name="releaseAll"/> waits for it, so it always empties what it promises.
    /// </summary>
    /// <remarks>
    /// An owner rents from its slot with a plain load and a plain store. A trimmer that exchanged the slot between the
    /// two would hold the item the owner is handing out: no renter would share it (the trimmer hands out nothing), but
    /// the item would count as trimmed and as outstanding, and the statistics would never add up again. So a pass takes
    /// only from the stripes, from the calling thread's own tier, and (through their finalizers) from dead threads.
    /// Each removal is a move in <see cref="PoolTotals"/>, counted as trimmed before it closes.
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
                int trimmed = GetStripes(c)?.Trim(nowMs, ageMs, all, waitForClaims: releaseAll, _discardItem, _totals) ?? 0;
                ReleaseBudget(c, trimmed);
                removed += trimmed;
            }

            object? own = ThreadCacheTable.Get(_id);
            foreach (KeyValuePair<ThreadCache<T>, object?> pair in _threadCaches)
            {
                ThreadCache<T> cache = pair.Key;
                if (all && ReferenceEquals(own, cache))
                {
                    // The trimming thread's own cache has no racing owner, so "all" really means all there.
                    removed += EmptyThreadCache(cache);
                    continue;
                }

                // Volatile: asks the owner to move its magazines to the stripes, where later passes can age them.
                Volatile.Write(ref cache._flushRequested, 1);
            }

            LogTrimmed(removed);
            return removed;
        }
        finally
        {
            // Release: the next trimmer sees this pass's trimmer-owned state.
            Volatile.Write(ref _trimming, 0);
        }
    }

    private int EmptyThreadCache(ThreadCache<T> cache)
    {
        int removed = 0;
        for (int c = 0; c < _classCount; c++)
        {
            removed += TakeAndDiscard(ref cache.Slot(c));
        }

        Magazine<T>?[]? magazines = cache._magazines;
        if (magazines is not null)
        {
            foreach (Magazine<T>? magazine in magazines)
            {
                if (magazine is not null)
                {
                    for (int i = 0; i < magazine.Items.Length; i++)
                    {
                        removed += TakeAndDiscard(ref magazine.Items[i]);
                    }
                }
            }
        }

        return removed;
    }

    private int TakeAndDiscard(ref T? slot)
    {
        _totals.BeginMove();

        // Exchange: after a shutdown's mark an owner may still empty or fill this slot; whatever we take, only we discard it.
        T? item = Interlocked.Exchange(ref slot, null);
        if (item is null)
        {
            _totals.EndMove(0);
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
            _totals.EndMove(counted ? 1 : 0);
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
            bool restoreFlow = false;
            if (!ExecutionContext.IsFlowSuppressed())
            {
                ExecutionContext.SuppressFlow();
                restoreFlow = true;
            }

            try
            {
                trimTimer._timer = new Timer(static state => ((TrimTimer)state!).Tick(), trimTimer, interval, interval);
            }
            finally
            {
                if (restoreFlow)
                {
                    ExecutionContext.RestoreFlow();
                }
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
