using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>The owner a <see cref="StripedMemoryPool{T}"/> hands out: a pooled <see cref="MemoryManager{T}"/> bound for life to one array on the pinned object heap. The engine pools these owners, so a rent allocates nothing.</summary>
/// <remarks>
/// Its generation (see <see cref="PinnedBlockManager{T}"/>) is 0 while pooled. Being reused, it is never the
/// <see cref="IMemoryOwner{T}"/> of a rent unless the pool reuses owners
/// (<see cref="StripedMemoryPoolOptions.ReuseOwners"/>): <c>Rent</c> wraps it in a <see cref="RentedMemoryOwner{T}"/>, and
/// <see cref="MemoryLease{T}"/> reaches it only through <see cref="GetMemory(long)"/> and <see cref="EndLease(long)"/>,
/// so a stale handle or lease never touches a newer renter's buffer.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class PinnedMemoryOwner<T> : PinnedBlockManager<T>, IDisposable
    where T : unmanaged
{
    private readonly bool _reusesOwners;

    // The shared pool, for its owners (it lives as long as the process, so holding it costs nothing and a lease needs
    // no reference store); null for an independent pool's, which hold their pool in _pool while leased only, so that
    // an owner parked in a thread's slot does not keep a dropped pool alive.
    private readonly StripedMemoryPool<T>? _sharedPool;
    private StripedMemoryPool<T>? _pool;
    private readonly T[] _array;
    private readonly int _start;

    /// <summary>Creates an owner of a new pinned, uninitialized buffer of <paramref name="length"/> elements.</summary>
    public PinnedMemoryOwner(StripedMemoryPool<T> pool, int sizeClass, int length)
        : base(sizeClass)
    {
        _reusesOwners = pool.ReusesOwners;
        _sharedPool = pool.IsShared ? pool : null;

        // On the pinned object heap, so the address is fixed for its lifetime; the buffer starts at the array's first
        // element on a cache line, whatever the heap has been through.
        _array = PinnedArrayPlacement.AllocateWithAlignedStart<T>(length, out _start);
    }

    /// <summary>Starts a lease of <paramref name="length"/> elements from <paramref name="pool"/>; the caller holds the owner exclusively.</summary>
    /// <returns>The lease's generation.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long Lease(StripedMemoryPool<T> pool, int length)
    {
        if (_sharedPool is null)
        {
            _pool = pool;
        }

        return Lease(length);
    }

    /// <summary>The memory of the current lease: exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">The owner has been disposed.</exception>
    public override Memory<T> Memory
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            ThrowIfNotLeased();
            return GetMemory();
        }
    }

    /// <inheritdoc />
    protected override ref T Start => ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_array), _start);

    /// <inheritdoc />
    protected override string DisposedObjectName => nameof(IMemoryOwner<T>);

    /// <summary>The memory of the lease made at <paramref name="generation"/>, exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">That lease has ended.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Memory<T> GetMemory(long generation)
    {
        if (Generation != generation)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
        }

        return GetMemory();
    }

    /// <summary>Ends the lease of <paramref name="generation"/> and returns the owner to its pool; false if it had ended.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool EndLease(long generation)
    {
        if (!TryEndLease(generation))
        {
            return false;
        }

        ReturnToPool();
        return true;
    }

    /// <summary>Ends the lease of the handle that took this owner out of its <see cref="RentedMemoryOwner{T}"/>, and returns it to its pool.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndHandleLease()
    {
        EndHeldLease();
        ReturnToPool();
    }

    /// <summary>In a pool that reuses owners (this object is the rent's <see cref="IMemoryOwner{T}"/>), ends the current lease once; otherwise nothing.</summary>
    /// <remarks>A rent is otherwise ended only through its handle or struct lease, never through this pooled manager reached from a <see cref="Memory{T}"/>.</remarks>
    void IDisposable.Dispose()
    {
        long generation = Generation;
        if (generation != 0 && _reusesOwners)
        {
            EndLease(generation);
        }
    }

    /// <summary>Hands the owner back to the pool of the lease that just ended (only its ender gets here).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ReturnToPool()
    {
        StripedMemoryPool<T>? pool = _sharedPool;
        if (pool is null)
        {
            pool = _pool!;
            _pool = null;
        }

        pool.Return(this);
    }

    /// <summary>Clears the array, buffer and slack (clear-on-return pools).</summary>
    internal void Clear() => _array.AsSpan().Clear();

    /// <summary>The array segment of the current lease, so array-only APIs avoid a copy.</summary>
    protected override bool TryGetArray(out ArraySegment<T> segment)
    {
        if (!IsLeased)
        {
            segment = default;
            return false;
        }

        segment = new ArraySegment<T>(_array, _start, Length);
        return true;
    }

    /// <summary>Ends the current lease (reached through <see cref="MemoryManager{T}"/>'s own dispose pattern).</summary>
    protected override void Dispose(bool disposing) => ((IDisposable)this).Dispose();
}
