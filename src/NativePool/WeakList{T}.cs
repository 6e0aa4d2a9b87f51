using System;
using System.Collections.Generic;

namespace NativePool;

/// <summary>
/// A list of objects held weakly, for the process-wide registries of pools (metrics, observation): adding prunes the
/// collected entries once the list has doubled since the last prune, so it stays as long as the live objects, not as
/// the objects ever added. Not thread-safe: callers lock around it.
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class WeakList<T> where T : class
{
    private readonly List<WeakReference<T>> _items = [];
    private int _pruneAt = 16;

    /// <summary>Adds <paramref name="item"/>, first dropping collected entries when the list is due for it.</summary>
    /// <param name="item">The object.</param>
    public void Add(T item)
    {
        if (_items.Count >= _pruneAt)
        {
            _items.RemoveAll(static reference => !reference.TryGetTarget(out _));
            _pruneAt = Math.Max(16, _items.Count * 2);
        }

        _items.Add(new WeakReference<T>(item));
    }

    /// <summary>Removes <paramref name="item"/> and every collected entry.</summary>
    /// <param name="item">The object.</param>
    public void Remove(T item) =>
        _items.RemoveAll(reference => !reference.TryGetTarget(out T? target) || ReferenceEquals(target, item));

    /// <summary>Appends the objects alive now to <paramref name="live"/>.</summary>
    /// <param name="live">The list to fill.</param>
    public void CopyLiveTo(List<T> live)
    {
        foreach (WeakReference<T> reference in _items)
        {
            if (reference.TryGetTarget(out T? item))
            {
                live.Add(item);
            }
        }
    }
}
