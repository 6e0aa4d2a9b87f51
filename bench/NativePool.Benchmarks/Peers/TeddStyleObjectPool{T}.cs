using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool.Benchmarks.Peers;

/// <summary>
/// A re-creation of Tedd.ObjectPool (its <c>ObjectPool&lt;T&gt;</c> as of the published source), written for these
/// benchmarks because the package does not restore on the build machines. Every table labels it
/// <see cref="PeerNames.TeddStyle"/>. It keeps the original's data layout and every synchronizing instruction on every
/// path, so it costs what the original costs: same per-thread slot, same arrays, same compare-and-swaps.
/// </summary>
/// <remarks>
/// <para>
/// The design, as in the original: a <see cref="ThreadLocal{T}"/> of the item itself (not of a holder), read and written
/// through its <see cref="ThreadLocal{T}.Value"/> property, so an allocate/free pair that stays on one thread costs four
/// thread-local accesses and touches no shared memory; one hot fast slot (<c>_firstItem</c>) claimed on allocate with one
/// compare-and-swap and filled on free with a plain volatile store (no compare-and-swap: two threads freeing at once may
/// both see it empty, and one of the two items is then lost to the GC, as in the original); an array of <c>size − 1</c>
/// further slots, each an element of a one-field struct array, scanned from a start index that
/// <see cref="Interlocked.Increment(ref int)"/> rotates, claimed on allocate with one compare-and-swap and filled on free
/// with a volatile store; a full pool drops the item. Fast paths are inlined, the array scans are not.
/// </para>
/// <para>
/// One departure: the scan index is reduced modulo the array length as an unsigned number, where the original's signed
/// remainder would index below zero once the rotating counter wraps (after 2^31 slow operations).
/// </para>
/// </remarks>
/// <typeparam name="T">The pooled type.</typeparam>
public sealed class TeddStyleObjectPool<T> : IDisposable where T : class
{
    private readonly Func<T> _factory;
    private readonly Action<T>? _cleanup;
    private readonly ThreadLocal<T?> _threadItem = new(static () => null);
    private readonly Element[] _items;
    private T? _firstItem;
    private int _allocateIndex;
    private int _freeIndex;

    /// <summary>Creates a pool of <paramref name="size"/> shared slots (the fast slot plus <c>size − 1</c> array slots).</summary>
    public TeddStyleObjectPool(Func<T> factory, Action<T>? cleanup, int size)
    {
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentOutOfRangeException.ThrowIfLessThan(size, 1);
        _factory = factory;
        _cleanup = cleanup;
        _items = new Element[size - 1];
    }

    /// <summary>Takes an item: the thread's cached one, else the fast slot, else a slot of the array, else a new one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T Allocate()
    {
        T? item = _threadItem.Value;
        if (item is not null)
        {
            _threadItem.Value = null;
            return item;
        }

        // Volatile: another thread may have just published an item into the fast slot; read its latest value.
        item = Volatile.Read(ref _firstItem);

        // Settles two threads taking the fast slot's item at once: only the one whose exchange sees it gets it.
        if (item is not null && ReferenceEquals(Interlocked.CompareExchange(ref _firstItem, null, item), item))
        {
            return item;
        }

        return AllocateSlow();
    }

    /// <summary>Gives an item back: cleanup runs, then the thread's slot, the fast slot or an array slot keeps it (or it is dropped).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Free(T? item)
    {
        if (item is null)
        {
            return;
        }

        _cleanup?.Invoke(item);
        if (_threadItem.Value is null)
        {
            _threadItem.Value = item;
            return;
        }

        // Volatile: the fast slot is emptied by other threads' allocates; read its latest value, then publish into it.
        // Not settled: two frees racing into an empty fast slot both store, and the first item is left to the GC.
        if (Volatile.Read(ref _firstItem) is null)
        {
            Volatile.Write(ref _firstItem, item);
            return;
        }

        FreeSlow(item);
    }

    /// <summary>Creates items into the fast slot, then into the empty array slots, until <paramref name="count"/> are made or every slot is full.</summary>
    public void Prefill(int count)
    {
        // Volatile: as in Free (prefill runs before the pool is shared, like the original's).
        if (count > 0 && Volatile.Read(ref _firstItem) is null)
        {
            Volatile.Write(ref _firstItem, _factory());
            count--;
        }

        Element[] items = _items;
        for (int i = 0; i < items.Length && count > 0; i++)
        {
            // Volatile: as in Free.
            if (Volatile.Read(ref items[i].Value) is null)
            {
                Volatile.Write(ref items[i].Value, _factory());
                count--;
            }
        }
    }

    /// <summary>Tears down the per-thread slots (pooled items are not disposed), as the original does.</summary>
    public void Dispose() => _threadItem.Dispose();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T AllocateSlow()
    {
        Element[] items = _items;
        int length = items.Length;
        if (length != 0)
        {
            // Interlocked: rotates the scan's start between threads, as the original does.
            int start = Interlocked.Increment(ref _allocateIndex);
            for (int k = 0; k < length; k++)
            {
                int i = (int)((uint)(start + k) % (uint)length);

                // Volatile: the slot is filled by other threads' frees; read the published reference.
                T? candidate = Volatile.Read(ref items[i].Value);

                // Settles two threads claiming the same slot's item: only the one whose exchange sees it gets it.
                if (candidate is not null && ReferenceEquals(Interlocked.CompareExchange(ref items[i].Value, null, candidate), candidate))
                {
                    return candidate;
                }
            }
        }

        return _factory();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FreeSlow(T item)
    {
        Element[] items = _items;
        int length = items.Length;
        if (length != 0)
        {
            // Interlocked: rotates the scan's start between threads, as the original does.
            int start = Interlocked.Increment(ref _freeIndex);
            for (int k = 0; k < length; k++)
            {
                int i = (int)((uint)(start + k) % (uint)length);

                // Volatile: read and publish as the original does. Not settled: two frees may store into one empty slot,
                // and the first item is left to the GC.
                if (Volatile.Read(ref items[i].Value) is null)
                {
                    Volatile.Write(ref items[i].Value, item);
                    return;
                }
            }
        }

        // Full: dropped for the GC, the original's default overflow policy.
    }

    /// <summary>A slot as a one-field struct, the original's layout (array stores skip the covariance check). Mutable struct: do not make readonly.</summary>
    private struct Element
    {
        public T? Value;
    }
}
