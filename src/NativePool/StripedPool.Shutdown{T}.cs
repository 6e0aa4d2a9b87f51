using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>
/// Shutdown: the one protocol every disposable pool (objects, memory, native blocks) uses to let go of everything it
/// holds, including what other live threads have parked, with each item discarded exactly once.
/// </content>
/// <remarks>
/// The owner fills and empties its slot and magazine with plain loads and stores, so an owner racing the drain's
/// exchanges could hand out an item the shutdown took, or park one it never saw. Hence mark, process-wide barrier, drain,
/// and the facade's re-check of <see cref="IsShutDown"/> after every engine rent and return; after the mark every discard
/// goes through a weak set, so each item is discarded and counted once. The argument is in docs/design.md, "Shutdown".
/// </remarks>
internal sealed partial class StripedPool<T>
{
    private ShutdownState? _shutdown;

    /// <summary>Whether <see cref="Shutdown"/> has begun. Facades re-read it after every rent and return.</summary>
    public bool IsShutDown
    {
        // Volatile: published by Shutdown on another thread; see the remarks on the protocol.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Volatile.Read(ref _shutdown) is not null;
    }

    /// <summary>Marks the pool, waits out in-flight stores with a process-wide barrier, discards every pooled and parked item once, and gives the id back; true for the call that did it.</summary>
    /// <exception cref="AggregateException">The discard of one or more items threw; every other item was still discarded.</exception>
    public bool Shutdown()
    {
        var state = new ShutdownState();

        // Settles two Shutdown calls at once (a container and its owner): only the first publishes and drains.
        if (Interlocked.CompareExchange(ref _shutdown, state, null) is not null)
        {
            return false;
        }

        DrainAfterMark(state);
        ReleaseId();
        return true;
    }

    /// <summary>A facade's whole <c>Dispose</c>: <paramref name="closeFacade"/> (idempotent, not throwing) closes its inlined paths and registrations, then <see cref="Shutdown()"/>.</summary>
    /// <remarks>The callback runs on every call, so a second <c>Dispose</c> that returns while the first still drains also finds the facade closed.</remarks>
    /// <exception cref="AggregateException">The discard of one or more items threw; every other item was still discarded.</exception>
    public bool Shutdown<TFacade>(TFacade facade, Action<TFacade> closeFacade)
    {
        closeFacade(facade);
        return Shutdown();
    }

    /// <summary>A rent saw the mark after it took <paramref name="item"/>: the item goes to nobody, discarded and counted once.</summary>
    /// <remarks>The facade throws <see cref="ObjectDisposedException"/> after this returns.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void RentRacedShutdown(T item)
    {
        ShutdownState state = _shutdown!;

        // No drain took it (or none will count it) when this claims it first: it leaves the pool here, as the drain's
        // items do, counted as trimmed in one move.
        _owner.BeginMove();
        bool claimed = false;
        try
        {
            claimed = DiscardOnce(state, item);
        }
        finally
        {
            _owner.EndMove(claimed ? 1 : 0);
        }

        if (claimed)
        {
            LogTrimmed(1);
        }

        state.ThrowCollectedErrors();
    }

    /// <summary>A return saw the mark after it stored its item: drain again, so nothing stored after the drain stays.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public void ReturnRacedShutdown() => DrainAfterMark(_shutdown!);

    /// <summary>Discards an item the facade will not keep (a return after shutdown), once.</summary>
    public void DiscardAfterShutdown(T item)
    {
        ShutdownState state = _shutdown!;
        DiscardOnce(state, item);
        state.ThrowCollectedErrors();
    }

    /// <summary>Every discard of the engine: the callback, or after shutdown the exactly-once path.</summary>
    /// <returns>False only after shutdown, for an item another discarder claimed first: the caller must not count it.</returns>
    private bool Discard(T item)
    {
        // Volatile: a drainer or a raced owner after the mark must use the exactly-once path (see the remarks).
        ShutdownState? state = Volatile.Read(ref _shutdown);
        if (state is null)
        {
            _onDiscard?.Invoke(item);
            return true;
        }

        return DiscardOnce(state, item);
    }

    /// <summary><see cref="Discard"/> as the stripes' discard callback, which counts every item it removes.</summary>
    /// <remarks>A stripe item is only ever taken under its stripe's claim, so no other discarder can hold it too.</remarks>
    private void DiscardStripeItem(T item) => Discard(item);

    private void DrainAfterMark(ShutdownState state)
    {
        // Every other thread either sees the mark on its next read or has its slot stores visible to the drains below.
        Interlocked.MemoryBarrierProcessWide();
        int removed = 0;
        for (int c = 0; c < _classCount; c++)
        {
            int trimmed = GetStripes(c)?.Trim(0, 0, releaseAll: true, waitForClaims: true, _discardItem, _owner) ?? 0;
            ReleaseBudget(c, trimmed);
            removed += trimmed;
        }

        foreach (ThreadCache<T> cache in LiveThreadCaches())
        {
            // The memo of the stripes' top is not an item; dropped so it keeps nothing reachable (the stripes are empty now).
            cache._pushedTop = null;
            removed += EmptyThreadCache(cache);
        }

        LogTrimmed(removed);
        state.ThrowCollectedErrors();
    }

    /// <summary>Claims <paramref name="item"/> in the shut-down pool's set and, for the first claimer only, discards it.</summary>
    /// <returns>True for the one caller per item that claimed it, which counts it.</returns>
    private bool DiscardOnce(ShutdownState state, T item)
    {
        if (!state.TryClaim(item))
        {
            return false;
        }

        if (_onDiscard is null)
        {
            return true;
        }

        try
        {
            _onDiscard(item);
        }
#pragma warning disable CA1031 // Collected and rethrown by the draining call: one failing item must not leave the rest undiscarded.
        catch (Exception exception)
#pragma warning restore CA1031
        {
            state.AddError(exception);
        }

        return true;
    }

    /// <summary>What a shut-down pool remembers: the items it has discarded, and what their discard threw.</summary>
    /// <remarks>
    /// The discarded items are held weakly: an item nobody references any more cannot reach a second discarder, so
    /// forgetting it is safe, and a disposed pool that is still referenced keeps none of the items it let go alive.
    /// </remarks>
    private sealed class ShutdownState
    {
        private readonly ConditionalWeakTable<T, object?> _discarded = new();
        private readonly object _errorsLock = new();
        private List<Exception>? _errors;

        /// <summary>True for exactly one caller per item.</summary>
        public bool TryClaim(T item) => _discarded.TryAdd(item, null);

        public void AddError(Exception exception)
        {
            lock (_errorsLock)
            {
                (_errors ??= []).Add(exception);
            }
        }

        /// <summary>Throws what discards threw since the last call, if anything.</summary>
        public void ThrowCollectedErrors()
        {
            List<Exception>? errors;
            lock (_errorsLock)
            {
                errors = _errors;
                _errors = null;
            }

            if (errors is not null)
            {
                ThrowHelper.ThrowAggregate("Discarding the pooled items threw.", errors);
            }
        }
    }
}
