using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <content>
/// Giving a strict pool's bound back from the caches of threads that have ended. A thread of a strict pool holds units of the bound for what it parks in its slot and magazine. When the thread ends,
/// its cache becomes garbage, and its finalizer gives the units back, but only after a collection finds it: until then
/// a pool whose threads come and go (each parking one item, then ending) can find its whole bound held by dead
/// threads, and every other thread then allocates on each rent and drops on each return. So a return that finds the
/// bound spent retires the caches of ended threads itself (<see cref="ThreadCache{T}.Retire"/>, the finalizer's own
/// work, done once by whichever comes first), then tries once more.
/// </content>
internal sealed partial class StripedPool<T>
{
    /// <summary>Thread caches created since the last look for dead ones (a hint, reset by the look).</summary>
    private int _cachesSinceReclaim;

    /// <summary>Takes one unit of the strict bound, retiring dead threads' caches first if the bound is spent.</summary>
    /// <returns>True when the unit was taken.</returns>
    private bool ReserveOne() => _totals.Reserve(1, 1) == 1 || (ReclaimDeadThreads() && _totals.Reserve(1, 1) == 1);

    /// <summary>Counts a new thread cache, so the next return that finds the bound spent looks for dead threads.</summary>
    private void NoteCacheCreated()
    {
        // Interlocked: caches are created on many threads at once; a lost increment would only delay a look.
        Interlocked.Increment(ref _cachesSinceReclaim);
    }

    /// <summary>Retires the caches of threads that have ended; true when any was retired (so units may be free).</summary>
    /// <remarks>
    /// Only a thread that created a cache can hold units, so the walk over every cache runs only when a cache was
    /// created since the last walk: each thread that uses the pool pays for at most one walk, however often the bound is
    /// found spent. A cache whose thread has ended is written by nobody, so retiring it from here is what its finalizer
    /// would do, and the finalizer then finds it retired and does nothing.
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ReclaimDeadThreads()
    {
        // Interlocked: two returns may find the bound spent at once; one of them walks the caches for both.
        if (Interlocked.Exchange(ref _cachesSinceReclaim, 0) == 0)
        {
            return false;
        }

        bool retired = false;
        foreach (KeyValuePair<ThreadCache<T>, object?> pair in _threadCaches)
        {
            ThreadCache<T> cache = pair.Key;

            // Volatile: the flag is set by a finalizer or another reclaiming thread; a stale 0 only costs a failed Retire.
            if (Volatile.Read(ref cache._retired) == 0 && !cache._thread.IsAlive)
            {
                retired |= cache.Retire();
            }
        }

        return retired;
    }
}
