using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <content>Trimming: giving idle items back to the GC from the cold end of each stripe.</content>
internal sealed partial class StripeSet<T>
{
    /// <summary>One trim pass over every stripe: half of a stripe untouched for <paramref name="trimAgeMs"/> goes, or all with <paramref name="releaseAll"/>; returns how many items went.</summary>
    /// <remarks>Each stripe's removal is one move of <paramref name="owner"/>, counted as trimmed before it closes, so statistics never see an item in between; <paramref name="onRemoved"/>
    /// runs after the stripe is released, and <paramref name="waitForClaims"/> (disposal) retries a claimed stripe.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public int Trim(long nowMs, long trimAgeMs, bool releaseAll, bool waitForClaims, Action<T>? onRemoved, PoolOwner owner)
    {
        // Allocated before any claim: nothing that runs under a claim allocates, so an OutOfMemoryException can never
        // leave a stripe claimed (a set that waits for busy stripes would then wait on it for ever).
        T?[]? taken = onRemoved is null ? null : new T?[_capacity];
        int removed = 0;
        for (int stripe = 0; stripe <= _stripeMask; stripe++)
        {
            removed += TrimStripe(stripe, nowMs, trimAgeMs, releaseAll, waitForClaims, onRemoved, taken, owner);
        }

        return removed;
    }

    private int TrimStripe(int stripe, long nowMs, long trimAgeMs, bool releaseAll, bool waitForClaims, Action<T>? onRemoved, T?[]? taken, PoolOwner owner)
    {
        ref StripeHeader header = ref Header(stripe);

        // Settles the trimmer against renters and returners on this stripe: a busy stripe is not idle, so skip it
        // (only disposal spins for it, and a claim is held for a handful of instructions).
        while (Interlocked.CompareExchange(ref header.Claim, 1, 0) != 0)
        {
            if (!waitForClaims)
            {
                return 0;
            }

            Thread.SpinWait(1);
        }

        int count = header.Count;
        int take = 0;
        if (count == 0)
        {
            header.Touched = 0;
            header.IdleSince = 0;
        }
        else if (releaseAll)
        {
            take = count;
        }
        else if (header.Touched != 0)
        {
            header.Touched = 0;
            header.IdleSince = nowMs;
        }
        else if (header.IdleSince == 0)
        {
            header.IdleSince = nowMs;
        }
        else if (nowMs - header.IdleSince >= trimAgeMs)
        {
            // Half of what is left each period, at least one: a long idle stripe empties in log2(capacity) periods.
            take = (count + 1) / 2;
            header.IdleSince = nowMs;
        }

        if (take != 0)
        {
            // The cold end is the bottom of the stack: the items returned longest ago.
            owner.BeginMove();
            Span<T?> items = MemoryMarshal.CreateSpan(ref Region(stripe), count);
            if (taken is not null)
            {
                items[..take].CopyTo(taken);
            }

            items[take..].CopyTo(items);
            items[(count - take)..].Clear();
            header.Count = count - take;
            if (count == header.Capacity)
            {
                OccupancyMasks.Clear(ref _masks.Full, stripe);
            }

            if (take == count)
            {
                OccupancyMasks.Clear(ref _masks.HasItems, stripe);
            }
        }

        // Release: publishes the slide and the new count to the next claimer.
        Volatile.Write(ref header.Claim, 0);

        if (take != 0)
        {
            if (taken is not null)
            {
                for (int i = 0; i < take; i++)
                {
                    T item = taken[i]!;
                    taken[i] = null;
                    onRemoved!(item);
                }
            }

            // Closed only now: a reader of the pool's own counters (native bytes freed by the discard) sees them settled.
            owner.EndMove(take);
        }

        return take;
    }
}
