using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>Trimming: the Gen2 callback, the idle timer, memory pressure and the trim pass itself.</content>
internal sealed partial class StripedPool<T>
{
    /// <summary>How long another thread must be seen idle before trimming empties its slots, in milliseconds.</summary>
    internal const long MinimumSlotIdleMs = 1_000;

    private readonly TimeProvider _clock;
    private readonly Func<MemoryPressure> _pressure;
    private readonly long _trimAgeMs;
    private readonly bool _trimThreadCaches;
    private int _trimming;

    /// <summary>
    /// One trim pass: items untouched for the trim age (a quarter of it under medium memory pressure) go from the cold
    /// end of each stripe, half at a time, and from the slots of threads idle for that long (and at least
    /// <see cref="MinimumSlotIdleMs"/>). Under high pressure or when <paramref name="releaseAll"/> is set, every stripe
    /// is emptied, and so are the calling thread's slots and those of every thread idle for
    /// <see cref="MinimumSlotIdleMs"/> (an active thread keeps its one item per class until it goes idle). Never runs
    /// on a rent or return; concurrent calls skip rather than queue.
    /// </summary>
    /// <returns>How many items were released.</returns>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public int Trim(bool releaseAll = false)
    {
        // Settles the Gen2 callback, the timer and explicit callers trimming at once: one pass at a time, others skip.
        if (Interlocked.Exchange(ref _trimming, 1) != 0)
        {
            return 0;
        }

        try
        {
            long nowMs = (long)_clock.GetElapsedTime(0).TotalMilliseconds;
            MemoryPressure pressure = releaseAll ? MemoryPressure.High : _pressure();
            bool all = pressure == MemoryPressure.High;
            long ageMs = pressure == MemoryPressure.Medium ? _trimAgeMs / 4 : _trimAgeMs;

            int removed = 0;
            for (int c = 0; c < _classCount; c++)
            {
                removed += GetStripes(c)?.Trim(nowMs, ageMs, all, waitForClaims: false, _onDiscard) ?? 0;
            }

            if (_trimThreadCaches)
            {
                foreach (KeyValuePair<ThreadCache<T>, object?> pair in _threadCaches)
                {
                    removed += TrimThreadCache(pair.Key, nowMs, ageMs, all);
                }
            }

            _totals.AddTrimmed(removed);
            return removed;
        }
        finally
        {
            // Release: the next trimmer sees this pass's trimmer-owned state.
            Volatile.Write(ref _trimming, 0);
        }
    }

    /// <summary>Removes every item from the stripes, waiting out in-flight claims (disposal).</summary>
    /// <returns>How many items were removed.</returns>
    public int DrainStripes()
    {
        int removed = 0;
        for (int c = 0; c < _classCount; c++)
        {
            removed += GetStripes(c)?.Trim(0, 0, releaseAll: true, waitForClaims: true, _onDiscard) ?? 0;
        }

        _totals.AddTrimmed(removed);
        return removed;
    }

    /// <summary>
    /// Removes every item from every thread's slots (disposal), each with an exchange, and passes it to the discard
    /// callback.
    /// </summary>
    /// <remarks>
    /// The owners of those slots fill and empty them with plain loads and stores, so an owner that is renting at this
    /// very moment may hand out the item this call takes. Only a caller that settles that race itself may use this:
    /// <c>StripedObjectPool</c> marks itself disposed, issues a process-wide barrier, and re-checks the mark after
    /// every rent and return (its remarks give the argument).
    /// </remarks>
    /// <returns>How many items were removed.</returns>
    public int DrainThreadCaches()
    {
        int removed = 0;
        foreach (KeyValuePair<ThreadCache<T>, object?> pair in _threadCaches)
        {
            removed += EmptyThreadCache(pair.Key);
        }

        _totals.AddTrimmed(removed);
        return removed;
    }

    /// <summary>
    /// Removes every item parked in the calling thread's slots and passes each to the discard callback (disposal of
    /// pools whose discard frees memory, which must not take items out of other threads' slots).
    /// </summary>
    /// <returns>How many items were removed.</returns>
    public int DrainCurrentThread()
    {
        object? entry = ThreadCacheTable.Get(_id);
        if (entry is null)
        {
            return 0;
        }

        int removed = EmptyThreadCache(Unsafe.As<ThreadCache<T>>(entry));
        _totals.AddTrimmed(removed);
        return removed;
    }

    private int TrimThreadCache(ThreadCache<T> cache, long nowMs, long ageMs, bool all)
    {
        // The trimming thread's own cache has no racing owner, so "all" really means all there.
        if (all && ReferenceEquals(ThreadCacheTable.Get(_id), cache))
        {
            return EmptyThreadCache(cache);
        }

        // Volatile: the owner thread writes its counters with plain stores; any change means the thread is active.
        long activity = Volatile.Read(ref cache._rented) + Volatile.Read(ref cache._returned);
        if (activity != cache._trimActivity || cache._trimIdleSince == 0)
        {
            cache._trimActivity = activity;
            cache._trimIdleSince = nowMs;
            return 0;
        }

        // Another live thread's slots are only emptied once it has been seen idle for a while on the trim clock: an
        // owner preempted in the middle of a rent could otherwise lose the race with our exchange and hand out the
        // item we count as trimmed (never to two renters, but the counters would disagree by one).
        long required = all ? MinimumSlotIdleMs : Math.Max(ageMs, MinimumSlotIdleMs);
        if (nowMs - cache._trimIdleSince < required)
        {
            return 0;
        }

        cache._trimIdleSince = nowMs;
        return EmptyThreadCache(cache);
    }

    private int EmptyThreadCache(ThreadCache<T> cache)
    {
        int removed = 0;
        for (int c = 0; c < cache._slots.Length; c++)
        {
            // Exchange: the owner may wake and empty or fill this slot right now; whatever we take, only we drop it.
            T? item = Interlocked.Exchange(ref cache._slots[c], null);
            if (item is not null)
            {
                removed++;
                _onDiscard?.Invoke(item);
            }
        }

        return removed;
    }

    private void StartTrimming(TimeSpan interval)
    {
        Gen2GcCallback.Register(static target => { ((StripedPool<T>)target).Trim(); return true; }, this);
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
            if (_pool.TryGetTarget(out StripedPool<T>? pool))
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
