using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>The thread caches of one pool, held weakly: what the trimmer, the statistics, disposal and the finalizer walk.</summary>
/// <remarks>
/// <para>
/// The pool must not keep a thread's cache alive (a dead thread's cache is finalized, and its counts retired), and the
/// pool's own finalizer must still reach the caches of threads that live on: a dropped pool's items parked in a live
/// thread's slots and magazines would otherwise stay reachable from that thread's table for as long as it runs. A
/// <see cref="System.Runtime.CompilerServices.ConditionalWeakTable{TKey, TValue}"/> cannot serve the finalizer: it may
/// itself be finalized first, in any order. So the registry holds plain weak GC handles, which nothing but
/// <see cref="Release"/> frees.
/// </para>
/// <para>
/// The handles track resurrection: a cache whose thread has ended stays listed until it is collected, through its own
/// finalizer, which retires its counts and sets <see cref="ThreadCache{T}._retired"/>; <see cref="Snapshot"/> skips a
/// retired cache. A lock guards the list: caches are added once per thread and pool, and the walks (a trim pass, a
/// statistics read, disposal) are rare next to rents and returns, which never touch the registry.
/// </para>
/// </remarks>
internal sealed class ThreadCacheRegistry<T> where T : class
{
    private readonly object _lock = new();
    private GCHandle[] _handles = new GCHandle[4];
    private int _count;

    /// <summary>Lists <paramref name="cache"/>; handles of collected caches are reused first.</summary>
    public void Add(ThreadCache<T> cache)
    {
        lock (_lock)
        {
            if (_count == _handles.Length)
            {
                Prune();
                if (_count == _handles.Length)
                {
                    Array.Resize(ref _handles, _count * 2);
                }
            }

            _handles[_count++] = GCHandle.Alloc(cache, GCHandleType.WeakTrackResurrection);
        }
    }

    /// <summary>The listed caches neither collected nor retired: a retired cache's finalizer already discarded and counted what it held, so no walk may again.</summary>
    public List<ThreadCache<T>> Snapshot()
    {
        var live = new List<ThreadCache<T>>();
        lock (_lock)
        {
            for (int i = 0; i < _count; i++)
            {
                // Volatile: the finalizer sets the flag once the counts are in the owner's retired totals (release).
                if (_handles[i].Target is ThreadCache<T> cache && Volatile.Read(ref cache._retired) == 0)
                {
                    live.Add(cache);
                }
            }
        }

        return live;
    }

    /// <summary>Frees every handle (the pool's finalizer, last): the registry lists nothing afterwards.</summary>
    public void Release()
    {
        lock (_lock)
        {
            for (int i = 0; i < _count; i++)
            {
                _handles[i].Free();
            }

            _count = 0;
        }
    }

    private void Prune()
    {
        int kept = 0;
        for (int i = 0; i < _count; i++)
        {
            if (_handles[i].Target is null)
            {
                _handles[i].Free();
            }
            else
            {
                _handles[kept++] = _handles[i];
            }
        }

        Array.Clear(_handles, kept, _count - kept);
        _count = kept;
    }
}
