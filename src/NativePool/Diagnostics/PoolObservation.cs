using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The one flag the facades' hot paths read to learn whether anybody observes pools: a listener enabled on the
/// <c>NativePool</c> event source, or a guarded or leak-tracking pool alive in the process.
/// </summary>
/// <remarks>
/// A pool nobody observes pays one load of a static field and one predicted branch per rent and per return; everything
/// else (the event source's own flags, the pool's guard) is read only behind it. The flag is set from the event
/// source's command callback and when a guarded pool is created; it never turns off while a guarded pool has existed
/// (such pools are for tests and investigations).
/// </remarks>
internal static class PoolObservation
{
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

    private static void Update() =>
        // Volatile: publishes the new state to hot paths on other threads (and orders it after the inputs above).
        Volatile.Write(ref s_active, s_listening || Volatile.Read(ref s_guardedPools) > 0);
}
