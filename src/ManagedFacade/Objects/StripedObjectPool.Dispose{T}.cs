using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>
/// Disposal, and how it is settled against a <see cref="Get"/> or <see cref="Return"/> running at the same time.
/// </content>
/// <remarks>
/// The pool uses the engine's one shutdown protocol (<see cref="StripedPool{T}.Shutdown"/>: mark, process-wide barrier,
/// drain of the stripes and of every thread's slots and magazines, each object discarded once). Its part is the
/// owner's: <see cref="Get"/> and <see cref="Return"/> re-read the mark after their engine operation (a refused double
/// return before it throws) and take the engine's raced paths when they see it, so a <see cref="Get"/> racing <see cref="Dispose"/> never hands out a disposed
/// object and a <see cref="Return"/> racing it never leaves an undisposed one behind. The re-checks are plain loads of a
/// field written once; the barrier and the weak set of discarded objects are paid only by <see cref="Dispose"/> and by
/// operations that actually race it.
/// </remarks>
public sealed partial class StripedObjectPool<T>
{
    /// <summary>
    /// Disposes the pool: <see cref="Get"/> throws <see cref="ObjectDisposedException"/> from now on. A disposing pool
    /// (<see cref="DisposesItems"/>) disposes every object it holds, including those in other threads' slots and
    /// magazines, and every object returned from now on. Later calls do nothing.
    /// </summary>
    /// <exception cref="AggregateException">One or more retained objects threw from their own <c>Dispose</c>; every other object was still disposed.</exception>
    public void Dispose()
    {
        try
        {
            _engine.Shutdown(this, static pool => PoolRegistry.Unregister(pool._engine));
        }
        finally
        {
            // Under the observation lock, so a listener attaching at this moment cannot reopen the short paths.
            PoolObservation.Refresh(this);
        }
    }

    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GetRacedDispose(T item)
    {
        try
        {
            // The item may also have been taken by a drain of this thread's slot: hand it to nobody, dispose it once.
            _engine.RentRacedShutdown(item);
        }
        finally
        {
            // A pair pop may have parked a second object in the slot after the drain: drain again, as a raced return does
            // (after the item, so a throwing dispose there cannot leave the item undisposed).
            _engine.ReturnRacedShutdown();
        }

        ThrowHelper.ThrowObjectDisposed(ObjectName);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnAfterDispose(T obj)
    {
        // Not kept: counted as dropped, so the statistics still balance once callers are quiet.
        _engine.RecordUnpooledReturn();

        // Not in the pool (unless returned twice): ours alone to dispose, as Microsoft's disposing pool does.
        if (_disposesItems)
        {
            _engine.DiscardAfterShutdown(obj);
        }
    }
}
