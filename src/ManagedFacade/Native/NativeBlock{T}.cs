using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The engine's item for a native block: a small managed header that owns one block from
/// <see cref="NativeMemory.AlignedAlloc"/>, and the <see cref="MemoryManager{T}"/> that lets <see cref="Memory{T}"/>
/// consumers use it.
/// </summary>
/// <remarks>
/// <para>
/// Freed exactly once. <see cref="Free"/> swaps the address to zero with one interlocked exchange and only the caller
/// that got the non-zero address frees it, whoever calls: a return past the budget, a trim, the pool's disposal, a
/// lease disposed after its pool was, or this header's finalizer (a pool dropped without <c>Dispose</c>, a thread that
/// died with the block parked in its slot). Nothing frees a block while it is leased.
/// </para>
/// <para>
/// Leases. <see cref="_generation"/> is odd while the block is leased. Renting increments it with a plain store (the
/// renter holds the block exclusively); ending a lease is one compare-and-swap from the lease's own generation, so two
/// disposes of one lease (copies, or racing threads) return the block once, and a stale lease never ends a newer one.
/// </para>
/// <para>
/// As a memory manager: <c>GetSpan</c> and <c>Pin</c> throw <see cref="ObjectDisposedException"/> while the block is not
/// leased; <c>Pin</c> makes no GCHandle (native memory never moves). Disposing the manager itself does nothing: the
/// lease owns the block. A <see cref="Memory{T}"/> kept after its lease ended is a dangling pointer once the block is
/// leased again or freed; do not keep one.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type of the current lease's views.</typeparam>
internal sealed unsafe class NativeBlock<T> : MemoryManager<T>, IDisposable
    where T : unmanaged
{
    private readonly NativeBlockCounters _counters;
    private readonly int _byteCapacity;
    private readonly int _sizeClass;
    private nint _address;
    private int _length;
    private int _generation;

    private NativeBlock(int byteCapacity, int sizeClass, NativeBlockCounters counters)
    {
        _byteCapacity = byteCapacity;
        _sizeClass = sizeClass;
        _counters = counters;
    }

    /// <summary>
    /// Frees the block of a pool dropped without <c>Dispose</c> (or of a thread that died with it parked), if nobody did.
    /// A block that is still leased is left alone: a span or pointer taken from its lease may outlive every reference to
    /// the lease, so freeing it here could pull memory from under running code (CA2015). An undisposed lease leaks its
    /// block, visibly, in <see cref="NativeBlockStatistics.LiveBlocks"/>.
    /// </summary>
#pragma warning disable CA2015 // The finalizer frees only blocks that are not leased; no span may point into those.
    ~NativeBlock()
#pragma warning restore CA2015
    {
        if ((_generation & 1) == 0)
        {
            Free();
        }
    }

    /// <summary>The block's size in bytes.</summary>
    public int ByteCapacity => _byteCapacity;

    /// <summary>The size class, or -1 for a block larger than the pool's largest class (freed on return).</summary>
    public int SizeClass => _sizeClass;

    /// <summary>The block's address (0 once freed).</summary>
    public nint Address => _address;

    /// <summary>The generation: odd while leased.</summary>
    public int Generation => _generation;

    /// <summary>Elements of <typeparamref name="T"/> in the current lease.</summary>
    public int Length => _length;

    /// <summary>Allocates a block of <paramref name="byteCapacity"/> bytes aligned to <paramref name="alignment"/>.</summary>
    /// <exception cref="OutOfMemoryException">The native allocation failed.</exception>
    public static NativeBlock<T> Allocate(int byteCapacity, nuint alignment, int sizeClass, NativeBlockCounters counters)
    {
        // The header first: if the allocation throws, the header's finalizer finds nothing to free.
        var block = new NativeBlock<T>(byteCapacity, sizeClass, counters);
        block._address = (nint)NativeMemory.AlignedAlloc((nuint)byteCapacity, alignment);
        counters.RecordAllocation(byteCapacity);
        return block;
    }

    /// <summary>Starts a lease of <paramref name="length"/> elements; the caller holds the block exclusively.</summary>
    /// <returns>The lease's generation (odd).</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int Lease(int length)
    {
        _length = length;

        // A plain store is enough: the block came out of the pool (even), and a stale disposer only ever swaps the odd
        // generation its own lease had, which is no longer current.
        int generation = _generation + 1;
        _generation = generation;
        return generation;
    }

    /// <summary>Ends the lease of <paramref name="generation"/>; true for exactly one caller per lease.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool EndLease(int generation)
    {
        // Settles two disposes of one lease (copies, or two threads): only the one that moves the generation on wins.
        return Interlocked.CompareExchange(ref _generation, generation + 1, generation) == generation;
    }

    /// <summary>Frees the native memory, once, whoever calls.</summary>
    public void Free()
    {
        // Settles every freeing path (return past budget, trim, dispose, finalizer) racing: one gets the address.
        nint address = Interlocked.Exchange(ref _address, 0);
        if (address != 0)
        {
            NativeMemory.AlignedFree((void*)address);
            _counters.RecordFree(_byteCapacity);
#pragma warning disable CA1816 // Free is this type's disposal: once the memory is gone the finalizer has nothing to do.
            GC.SuppressFinalize(this);
#pragma warning restore CA1816
        }
    }

    /// <summary>The current lease's elements.</summary>
    /// <exception cref="ObjectDisposedException">The block is not leased.</exception>
    public override Span<T> GetSpan()
    {
        if ((_generation & 1) == 0)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(NativeBlockLease));
        }

        return new Span<T>((void*)_address, _length);
    }

    /// <summary>The address of element <paramref name="elementIndex"/>; no GCHandle (native memory never moves).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="elementIndex"/> is negative or past the end.</exception>
    /// <exception cref="ObjectDisposedException">The block is not leased.</exception>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        if ((_generation & 1) == 0)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(NativeBlockLease));
        }

        if ((uint)elementIndex > (uint)_length)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(elementIndex), "The element index must be from 0 to the memory's length.");
        }

        // This header as pinnable keeps the block from being finalized while the handle is held; Unpin does nothing.
        return new MemoryHandle((T*)_address + elementIndex, default, this);
    }

    /// <summary>Does nothing: native memory never moves.</summary>
    public override void Unpin()
    {
    }

    /// <summary>The current lease's memory: exactly <see cref="Length"/> elements.</summary>
    internal Memory<T> GetMemory() => CreateMemory(_length);

    /// <summary>Does nothing: the block belongs to its lease, and the lease returns it.</summary>
#pragma warning disable CA1816 // Deliberately not SuppressFinalize: disposing the manager must not disarm the pool's backstop.
    void IDisposable.Dispose()
#pragma warning restore CA1816
    {
    }

    /// <summary>Does nothing: the block belongs to its lease, and the lease returns it.</summary>
    protected override void Dispose(bool disposing)
    {
    }
}
