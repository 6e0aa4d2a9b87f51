using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// A list of objects held weakly: the process-wide registries of pools (metrics, observation, stream managers) and each
/// pool's thread caches (what the trimmer, the statistics, disposal and the pool's finalizer walk).
/// </summary>
/// <remarks>
/// Raw weak GC handles, freed only by this list, so a pool's finalizer can still walk its caches (a
/// <see cref="WeakReference{T}"/> may be finalized first). The thread caches' list tracks resurrection, keeping a dead
/// thread's cache listed through its finalizer; the registries do not, so they never hand out an object being finalized.
/// A full list prunes, then doubles if still over half full. A lock guards it: adds and walks are rare next to rents.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class WeakList<T>(bool trackResurrection = false) where T : class
{
    private readonly object _lock = new();
    private readonly GCHandleType _handleType = trackResurrection ? GCHandleType.WeakTrackResurrection : GCHandleType.Weak;
    private GCHandle[] _handles = new GCHandle[4];
    private int _count;

    /// <summary>Adds <paramref name="item"/>, first dropping collected entries when the list is full.</summary>
    public void Add(T item)
    {
        lock (_lock)
        {
            if (_count == _handles.Length)
            {
                RemoveWhere(null);
                if (_count * 2 > _handles.Length)
                {
                    Array.Resize(ref _handles, _handles.Length * 2);
                }
            }

            _handles[_count++] = GCHandle.Alloc(item, _handleType);
        }
    }

    /// <summary>Removes <paramref name="item"/> and every collected entry.</summary>
    public void Remove(T item)
    {
        lock (_lock)
        {
            RemoveWhere(item);
        }
    }

    /// <summary>The objects alive now, in a new list.</summary>
    public List<T> Snapshot()
    {
        var live = new List<T>();
        lock (_lock)
        {
            for (int i = 0; i < _count; i++)
            {
                if (_handles[i].Target is T item)
                {
                    live.Add(item);
                }
            }
        }

        return live;
    }

    /// <summary>Frees every handle (a pool's finalizer, last): the list holds nothing afterwards.</summary>
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

    private void RemoveWhere(T? item)
    {
        int kept = 0;
        for (int i = 0; i < _count; i++)
        {
            object? target = _handles[i].Target;
            if (target is null || ReferenceEquals(target, item))
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
