using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool.Benchmarks.Peers;

/// <summary>
/// A re-creation of Tedd.ObjectPool's published design, written for these benchmarks from the description in its README
/// (the package itself does not restore on the build machines). Every table labels it
/// <see cref="PeerNames.TeddStyle"/>; it is not the original code and may differ from it in detail.
/// </summary>
/// <remarks>
/// <para>
/// The design as published: a per-thread one-item cache in front of everything, so an allocate/free pair on one thread
/// touches no shared memory; one hot "fast slot" (<c>_firstItem</c>); an array of <c>size − 1</c> further slots, each
/// claimed and released with a single compare-and-swap; rotating probe indices for allocate and free so concurrent
/// threads start their scans at different slots; <c>Volatile</c> reads for unsynchronized loads; fast paths inlined,
/// slow paths not; a full pool drops the item.
/// </para>
/// <para>
/// Re-creation choices the README leaves open: the per-thread cache is a <see cref="ThreadLocal{T}"/> of a small
/// holder (one TLS lookup per call, and <see cref="Dispose"/> tears it down as the README says); the probe cursors are
/// plain shared fields updated without synchronization (a hint only: a stale cursor costs a longer scan, never a
/// wrong answer).
/// </para>
/// </remarks>
/// <typeparam name="T">The pooled type.</typeparam>
public sealed class TeddStyleObjectPool<T> : IDisposable where T : class
{
    private readonly Func<T> _factory;
    private readonly Action<T>? _cleanup;
    private readonly ThreadLocal<Holder> _threadItem = new(static () => new Holder());
    private readonly Slot[] _slots;
    private T? _firstItem;
    private int _allocateCursor;
    private int _freeCursor;

    /// <summary>Creates a pool of <paramref name="size"/> shared slots (the fast slot plus <c>size − 1</c> array slots).</summary>
    public TeddStyleObjectPool(Func<T> factory, Action<T>? cleanup, int size)
    {
        ArgumentNullException.ThrowIfNull(factory);
        ArgumentOutOfRangeException.ThrowIfLessThan(size, 1);
        _factory = factory;
        _cleanup = cleanup;
        _slots = new Slot[size - 1];
    }

    /// <summary>Takes an item: the thread's cached one, else the fast slot, else a slot of the array, else a new one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T Allocate()
    {
        Holder holder = _threadItem.Value!;
        T? item = holder.Item;
        if (item is not null)
        {
            holder.Item = null;
            return item;
        }

        // Volatile: another thread may have just published an item into the fast slot; read its latest value.
        item = Volatile.Read(ref _firstItem);

        // Settles two threads taking the fast slot's item at once: only the one whose exchange sees it gets it.
        if (item is null || !ReferenceEquals(item, Interlocked.CompareExchange(ref _firstItem, null, item)))
        {
            item = AllocateSlow();
        }

        return item;
    }

    /// <summary>Gives an item back: cleanup runs, then the thread cache, the fast slot or an array slot keeps it (or it is dropped).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Free(T? item)
    {
        if (item is null)
        {
            return;
        }

        _cleanup?.Invoke(item);
        Holder holder = _threadItem.Value!;
        if (holder.Item is null)
        {
            holder.Item = item;
            return;
        }

        // Settles two threads publishing into the empty fast slot at once: only one exchange finds it null.
        if (Volatile.Read(ref _firstItem) is not null || Interlocked.CompareExchange(ref _firstItem, item, null) is not null)
        {
            FreeSlow(item);
        }
    }

    /// <summary>Creates <paramref name="count"/> items and frees them into the pool.</summary>
    public void Prefill(int count)
    {
        for (int i = 0; i < count; i++)
        {
            Free(_factory());
        }
    }

    /// <summary>Tears down the per-thread caches (pooled items are not disposed), as the original does.</summary>
    public void Dispose() => _threadItem.Dispose();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T AllocateSlow()
    {
        Slot[] slots = _slots;
        int length = slots.Length;
        int start = _allocateCursor;
        for (int i = 0; i < length; i++)
        {
            int index = (int)((uint)(start + i) % (uint)length);

            // Volatile: the slot is filled by other threads' frees; read the published reference.
            T? candidate = Volatile.Read(ref slots[index].Item);

            // Settles two threads claiming the same slot's item: only the one whose exchange sees it gets it.
            if (candidate is not null && ReferenceEquals(candidate, Interlocked.CompareExchange(ref slots[index].Item, null, candidate)))
            {
                _allocateCursor = index + 1;
                return candidate;
            }
        }

        return _factory();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FreeSlow(T item)
    {
        Slot[] slots = _slots;
        int length = slots.Length;
        int start = _freeCursor;
        for (int i = 0; i < length; i++)
        {
            int index = (int)((uint)(start + i) % (uint)length);

            // Settles two threads publishing into the same empty slot: only one exchange finds it null.
            if (Volatile.Read(ref slots[index].Item) is null && Interlocked.CompareExchange(ref slots[index].Item, item, null) is null)
            {
                _freeCursor = index + 1;
                return;
            }
        }

        // Full: dropped for the GC, the original's default overflow policy.
    }

    private sealed class Holder
    {
        public T? Item;
    }

    /// <summary>A slot as a struct so array stores skip the covariance check. Mutable struct: do not make readonly.</summary>
    private struct Slot
    {
        public T? Item;
    }
}
