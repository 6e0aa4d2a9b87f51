using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The one flag the facades' hot paths read to learn whether anybody observes pools: a listener enabled on the
/// <c>NativePool</c> event source, or a guarded or leak-tracking pool alive in the process.
/// </summary>
/// <remarks>
/// The size-class pools' inlined paths do not read it: each pool folds the state into its own limits
/// (<see cref="Subscribe"/>). Other paths pay one static load and a predicted branch. Set from the event source's
/// command callback and when a guarded pool is created; it never turns off once a guarded pool has existed.
/// </remarks>
internal static class PoolObservation
{
    private static readonly object s_updateLock = new();
    private static readonly WeakList<IObservationSubscriber> s_subscribers = new();
    private static bool s_active;
    private static bool s_listening;
    private static int s_guardedPools;

    /// <summary>Whether anybody observes pools now.</summary>
    public static bool IsActive
    {
        // A plain read: a stale false costs one unobserved operation right after a listener attaches.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => s_active;
    }

    /// <summary>The event source was enabled or disabled.</summary>
    public static void SetListening(bool listening)
    {
        s_listening = listening;
        Update();
    }

    /// <summary>A guarded or leak-tracking pool was created.</summary>
    public static void AddGuardedPool()
    {
        // Interlocked: pools are created on many threads at once.
        Interlocked.Increment(ref s_guardedPools);
        Update();
    }

    /// <summary>Tells <paramref name="subscriber"/> the observation state now and on every change, under one lock, so the last call carries the latest state.</summary>
    /// <remarks>Pools that fold the flag into their inlined limits close those paths while anybody observes; held weakly, so an unreferenced pool is still collected.</remarks>
    public static void Subscribe(IObservationSubscriber subscriber)
    {
        lock (s_updateLock)
        {
            s_subscribers.Add(subscriber);
            subscriber.OnObservationChanged(s_active);
        }
    }

    /// <summary>Tells <paramref name="subscriber"/> (subscribed) the state again (it changed state of its own, e.g. it was disposed), under the same lock.</summary>
    public static void Refresh(IObservationSubscriber subscriber)
    {
        lock (s_updateLock)
        {
            subscriber.OnObservationChanged(s_active);
        }
    }

    private static void Update()
    {
        lock (s_updateLock)
        {
            // Volatile: publishes the new state to hot paths on other threads (and orders it after the inputs above).
            Volatile.Write(ref s_active, s_listening || Volatile.Read(ref s_guardedPools) > 0);
            foreach (IObservationSubscriber subscriber in s_subscribers.Snapshot())
            {
                subscriber.OnObservationChanged(s_active);
            }
        }
    }
}
