using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The owner a <see cref="StripedMemoryPool{T}"/> hands out: a pooled <see cref="MemoryManager{T}"/> bound for life to
/// one array on the pinned object heap. The engine pools these owners, so a rent allocates nothing.
/// </summary>
/// <remarks>
/// <para>
/// State. <see cref="_generation"/> is odd while the owner is rented and even while it is in the pool (or dropped).
/// Renting makes it odd (a plain increment: the renter is the only thread that may hold a live lease on it), ending a
/// lease makes it even again with one <see cref="Interlocked.CompareExchange(ref int, int, int)"/>, so of two threads
/// that dispose the same owner at once exactly one returns it and the other does nothing.
/// </para>
/// <para>
/// Stale references. This object is reused by later renters, so a reference to it cannot tell a finished lease from
/// the current one. It is therefore never handed out as the <see cref="IMemoryOwner{T}"/> of a rent unless the pool was
/// created with <see cref="StripedMemoryPoolOptions.ReuseOwners"/>: <c>Rent</c> wraps it in a
/// <see cref="RentedMemoryOwner{T}"/> made for that rent, and <see cref="MemoryLease{T}"/> carries the generation
/// itself. Both reach the owner only through <see cref="GetMemory(int)"/> and <see cref="EndLease(int)"/>, so a stale
/// handle or lease never touches a newer renter's buffer.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed unsafe class PinnedMemoryOwner<T> : MemoryManager<T>, IDisposable
    where T : unmanaged
{
    private readonly StripedMemoryPool<T> _pool;
    private readonly T[] _array;
    private readonly T* _pointer;
    private readonly int _sizeClass;
    private int _length;
    private int _generation;

    /// <summary>Creates an owner of a new pinned, uninitialized array of <paramref name="arrayLength"/> elements.</summary>
    public PinnedMemoryOwner(StripedMemoryPool<T> pool, int sizeClass, int arrayLength)
    {
        _pool = pool;
        _sizeClass = sizeClass;
        _array = GC.AllocateUninitializedArray<T>(arrayLength, pinned: true);

        // The array is on the pinned object heap: its address is fixed for its lifetime.
        _pointer = (T*)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(_array));
    }

    /// <summary>The size class of the array.</summary>
    public int SizeClass => _sizeClass;

    /// <summary>The length of the current lease.</summary>
    public int Length => _length;

    /// <summary>The generation: odd while rented.</summary>
    public int Generation => _generation;

    /// <summary>The pinned array (length is the class length).</summary>
    internal T[] Array => _array;

    /// <summary>The memory of the current lease: exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">The owner has been disposed.</exception>
    public override Memory<T> Memory
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            if ((_generation & 1) == 0)
            {
                ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
            }

            return CreateMemory(_length);
        }
    }

    /// <summary>The memory of the lease made at <paramref name="generation"/>, exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">That lease has ended.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Memory<T> GetMemory(int generation)
    {
        if (_generation != generation)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
        }

        return CreateMemory(_length);
    }

    /// <summary>Starts a lease of <paramref name="length"/> elements; the caller holds the owner exclusively.</summary>
    /// <returns>The lease's generation (odd).</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Lease(int length)
    {
        _length = length;

        // A plain store is enough: the owner came out of the pool (even), and a stale disposer only ever swaps an odd
        // value it read, so nobody else can write this field until the lease is published to its renter.
        int generation = _generation + 1;
        _generation = generation;
        return generation;
    }

    /// <summary>Ends the lease of <paramref name="generation"/> and returns the owner to its pool; false if it had ended.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool EndLease(int generation)
    {
        // Settles two disposes of one lease racing on two threads: only the one that moves the generation on returns it.
        if (Interlocked.CompareExchange(ref _generation, generation + 1, generation) != generation)
        {
            return false;
        }

        _pool.Return(this);
        return true;
    }

    /// <summary>Ends the current lease, once; a second call (or a racing one) does nothing.</summary>
    void IDisposable.Dispose()
    {
        int generation = _generation;
        if ((generation & 1) != 0)
        {
            EndLease(generation);
        }
    }

    /// <summary>The span of the current lease (exactly the requested length).</summary>
    /// <exception cref="ObjectDisposedException">The owner has been disposed.</exception>
    public override Span<T> GetSpan()
    {
        if ((_generation & 1) == 0)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
        }

        // An interior reference (not the raw pointer) so the span keeps the array alive on its own.
        return MemoryMarshal.CreateSpan(ref MemoryMarshal.GetArrayDataReference(_array), _length);
    }

    /// <summary>The address of element <paramref name="elementIndex"/>: the array is pre-pinned, so no GCHandle is made.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="elementIndex"/> is negative or past the end.</exception>
    /// <exception cref="ObjectDisposedException">The owner has been disposed.</exception>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        if ((_generation & 1) == 0)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
        }

        if ((uint)elementIndex > (uint)_length)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(elementIndex), "The element index must be from 0 to the memory's length.");
        }

        // The owner as pinnable keeps the array reachable for as long as the handle is held; Unpin does nothing.
        return new MemoryHandle(_pointer + elementIndex, default, this);
    }

    /// <summary>Does nothing: the array is pinned for its whole life.</summary>
    public override void Unpin()
    {
    }

    /// <summary>Clears the array (clear-on-return pools).</summary>
    internal void Clear() => _array.AsSpan().Clear();

    /// <summary>The array segment of the current lease, so array-only APIs avoid a copy.</summary>
    protected override bool TryGetArray(out ArraySegment<T> segment)
    {
        if ((_generation & 1) == 0)
        {
            segment = default;
            return false;
        }

        segment = new ArraySegment<T>(_array, 0, _length);
        return true;
    }

    /// <summary>Ends the current lease (reached through <see cref="MemoryManager{T}"/>'s own dispose pattern).</summary>
    protected override void Dispose(bool disposing) => ((IDisposable)this).Dispose();
}
