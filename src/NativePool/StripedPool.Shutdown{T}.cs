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
/// <para>
/// The problem. A thread's slot and magazine are filled and emptied by their owner with plain loads and stores (that is
/// what makes the hot path cheap), while <see cref="Shutdown"/> must empty every thread's tier from its own thread with
/// exchanges. An owner that read its slot just before the exchange and clears it just after holds the same item the
/// shutdown took; an owner that stores into its slot just after the exchange leaves an item the shutdown never saw.
/// </para>
/// <para>
/// The protocol. <see cref="Shutdown"/> (1) publishes the shutdown state with a compare-exchange, (2) calls
/// <see cref="Interlocked.MemoryBarrierProcessWide"/>, (3) drains the stripes and every thread's slots and magazines.
/// The pool's facade re-reads <see cref="IsShutDown"/> after every engine rent and return. The process-wide barrier
/// interrupts every other thread at some instruction P: everything it stored before P is visible to the drains in (3),
/// and every load it makes after P sees the mark from (1). So for an owner's slot operation followed by its re-check:
/// either the re-check ran before P, so the slot stores did too and the drain sees the slot as the owner left it; or
/// the re-check runs after P, sees the mark, and the owner takes the slow path: a rent hands its item to nobody
/// (<see cref="RentRacedShutdown"/> discards it and the facade throws), a return drains again
/// (<see cref="ReturnRacedShutdown"/>, which issues the barrier itself). Every drainer issues the barrier after the mark
/// and before draining, so the argument holds for each of them.
/// </para>
/// <para>
/// Exactly once. In that ambiguous window one item can reach two discarders (a drain and an owner's slow path, or two
/// drains). After the mark every discard goes through a weak reference set, so each item is discarded once, and
/// counted (as trimmed) once, by whichever discarder claims it first: a raced rent whose item no drain saw counts it
/// itself, and one whose item a drain also took leaves the count to the drain. This holds for pools without a discard
/// callback too, so their statistics come out exact. Exceptions thrown by the discard (an object's <c>Dispose</c>) are
/// collected so one failing item does not leave the others undiscarded, and rethrown as an
/// <see cref="AggregateException"/> by the call that drained them. The set exists only in a shut-down pool; the fast
/// path pays only the facade's re-check, a plain load of a field written once.
/// </para>
/// <para>
/// Trimming takes from another live thread's tier only under its own protocol (the owner proven outside its operation,
/// see <c>StripedPool.Trim</c>), and a thread that dies gives its parked items to its cache's finalizer, which no owner
/// can race. So with or without shutdown, a discard never runs on an item an owner may be handing out.
/// </para>
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

    /// <summary>
    /// Shuts the pool down: marks it, waits out every thread's in-flight stores with a process-wide barrier, then
    /// discards every item on the stripes and in every thread's slots and magazines, each once, and gives the pool's id
    /// back. Later calls do nothing.
    /// </summary>
    /// <returns>True for the call that shut the pool down.</returns>
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

    /// <summary>
    /// The one <c>Dispose</c> of every facade (objects, memory, native blocks): closes the facade's inlined paths and
    /// registrations with <paramref name="closeFacade"/>, then runs <see cref="Shutdown()"/>. The callback runs on every
    /// call, not only the first, so a second <c>Dispose</c> that returns while the first is still draining also finds the
    /// facade closed; it must be idempotent and must not throw.
    /// </summary>
    /// <typeparam name="TFacade">The facade type; the callback is static and takes the facade as its state.</typeparam>
    /// <param name="facade">The facade being disposed.</param>
    /// <param name="closeFacade">Closes the facade's inlined paths (its limits drop to 0) and unregisters it.</param>
    /// <returns>True for the call that shut the pool down.</returns>
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

        foreach (ThreadCache<T> cache in _threadCaches.Snapshot())
        {
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
