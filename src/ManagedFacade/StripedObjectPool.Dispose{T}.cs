using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>
/// Disposal, and how it is settled against a <see cref="Get"/> or <see cref="Return"/> running at the same time.
/// </content>
/// <remarks>
/// <para>
/// The problem. A thread's slot is filled and emptied by its owner with plain loads and stores (that is what makes the
/// fast path cheap), while <see cref="Dispose"/> must empty every thread's slot, from its own thread, with
/// <see cref="Interlocked.Exchange{T}(ref T, T)"/>. An owner that read its slot just before the exchange and clears it
/// just after holds the same object the disposer took; an owner that stores into its slot just after the exchange
/// leaves an object the disposer never saw.
/// </para>
/// <para>
/// The protocol. <see cref="Dispose"/> (1) publishes <see cref="_disposal"/> with an interlocked compare-exchange,
/// (2) calls <see cref="Interlocked.MemoryBarrierProcessWide"/>, (3) drains the stripes and every thread slot.
/// <see cref="Get"/> and <see cref="Return"/> read <see cref="_disposal"/> again after their slot operation. The
/// process-wide barrier interrupts every other thread at some instruction P: everything that thread stored before P is
/// visible to the drains in (3), and every load it makes after P sees the mark from (1). So for an owner's slot
/// operation followed by its re-check there are two cases. Either the re-check ran before P, so the slot stores ran
/// before P too and the drain sees the slot as the owner left it (no shared object, nothing missed); or the re-check
/// runs after P and sees the mark, and the owner takes the slow path: a <see cref="Get"/> hands its object to nobody
/// (it disposes it, once, and throws <see cref="ObjectDisposedException"/>), a <see cref="Return"/> issues the barrier
/// itself and drains again. Any thread that drains other threads' slots issues the barrier after seeing the mark and
/// before draining, so the argument holds for every drainer, not only the first.
/// </para>
/// <para>
/// Disposing once. In the ambiguous window an object can reach two disposers (the drain and the owner's slow path, or
/// two drains). After the mark every disposal the pool performs goes through <see cref="DisposeOnce"/>, which records
/// each object in a reference set under a lock and disposes only the first time. That set lives only in a disposed
/// pool and holds at most the objects the pool retained plus those racing the disposal. Exceptions thrown by objects'
/// <c>Dispose</c> during the drains are collected, so one failing object does not leave the others undisposed, and
/// are rethrown (as an <see cref="AggregateException"/>) by the call that drained them.
/// </para>
/// <para>
/// The fast path pays two plain loads of a field that is written once: the re-checks are ordinary <c>mov</c>s on x64
/// (<c>ldar</c> on Arm64), and the volatile reads keep the JIT from hoisting them above the slot stores. The barrier,
/// the lock and the set are paid only by <see cref="Dispose"/> and by operations that actually race it.
/// </para>
/// </remarks>
public sealed partial class StripedObjectPool<T>
{
    private DisposalState? _disposal;

    /// <summary>
    /// Disposes the pool: <see cref="Get"/> throws <see cref="ObjectDisposedException"/> from now on. A disposing pool
    /// (<see cref="DisposesItems"/>) disposes every object it holds, including those in other threads' slots, and every
    /// object returned from now on. Later calls do nothing.
    /// </summary>
    /// <exception cref="AggregateException">One or more retained objects threw from their own <c>Dispose</c>; every other object was still disposed.</exception>
    public void Dispose()
    {
        var state = new DisposalState();

        // Settles two Dispose calls at once (a container and its owner): only the first publishes and drains.
        if (Interlocked.CompareExchange(ref _disposal, state, null) is not null)
        {
            return;
        }

        PoolRegistry.Unregister(_engine);
        DrainAfterMark(state);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void DrainAfterMark(DisposalState state)
    {
        // Every other thread either sees the mark on its next read or has its slot stores visible to the drains below.
        Interlocked.MemoryBarrierProcessWide();
        _engine.DrainStripes();
        _engine.DrainThreadCaches();
        state.ThrowCollectedErrors();
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GetRacedDispose(T item)
    {
        // The item may also have been taken by a drain of this thread's slot: hand it to nobody, dispose it once.
        if (_disposesItems)
        {
            DisposalState state = _disposal!;
            DisposeOnce(state, item);
            state.ThrowCollectedErrors();
        }

        ThrowHelper.ThrowObjectDisposed(ObjectName);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnRacedDispose() => DrainAfterMark(_disposal!);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnAfterDispose(T obj)
    {
        // Not in the pool (unless returned twice): ours alone to dispose, as Microsoft's disposing pool does.
        if (_disposesItems)
        {
            DisposeItem(obj);
        }
    }

    /// <summary>The engine's discard callback of a disposing pool: overflow, and every drain after disposal.</summary>
    private void Discard(T item)
    {
        // Volatile: an owner whose slot store the drain missed always sees the mark here (see the remarks above).
        DisposalState? state = Volatile.Read(ref _disposal);
        if (state is null)
        {
            DisposeItem(item);
        }
        else
        {
            DisposeOnce(state, item);
        }
    }

    private static void DisposeOnce(DisposalState state, T item)
    {
        if (state.TryClaim(item))
        {
            try
            {
                DisposeItem(item);
            }
#pragma warning disable CA1031 // Collected and rethrown by the draining call: one failing object must not leave the rest undisposed.
            catch (Exception exception)
#pragma warning restore CA1031
            {
                state.AddError(exception);
            }
        }
    }

    /// <summary>What a disposed pool remembers: the objects it has disposed, and what their disposal threw.</summary>
    private sealed class DisposalState
    {
        private readonly HashSet<T> _disposed = new(ReferenceEqualityComparer.Instance);
        private List<Exception>? _errors;

        /// <summary>True for exactly one caller per object.</summary>
        public bool TryClaim(T item)
        {
            lock (_disposed)
            {
                return _disposed.Add(item);
            }
        }

        public void AddError(Exception exception)
        {
            lock (_disposed)
            {
                (_errors ??= []).Add(exception);
            }
        }

        /// <summary>Throws what objects' Dispose methods threw since the last call, if anything.</summary>
        public void ThrowCollectedErrors()
        {
            List<Exception>? errors;
            lock (_disposed)
            {
                errors = _errors;
                _errors = null;
            }

            if (errors is not null)
            {
                ThrowHelper.ThrowAggregate("Disposing the pooled objects threw.", errors);
            }
        }
    }
}
