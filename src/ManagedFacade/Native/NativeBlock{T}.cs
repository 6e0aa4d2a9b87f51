using System;
using System.Buffers;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>The engine's item for a native block: a small managed header that owns one block from <see cref="NativeMemory.AlignedAlloc"/>, and the <see cref="MemoryManager{T}"/> that lets <see cref="Memory{T}"/> consumers use it.</summary>
/// <remarks>
/// Freed exactly once: <see cref="Free"/> swaps the address to zero with one exchange and only the caller that got it
/// frees it, whoever calls (a return past the budget, a trim, disposal, a late lease, or this header's finalizer).
/// Nothing frees a block while it is leased. Leases and views: see <see cref="PinnedBlockManager{T}"/>; disposing the
/// manager itself does nothing, and a <see cref="Memory{T}"/> kept after its lease ended dangles.
/// </remarks>
/// <typeparam name="T">The element type of the current lease's views.</typeparam>
internal sealed unsafe class NativeBlock<T> : PinnedBlockManager<T>, IDisposable
    where T : unmanaged
{
    private readonly NativeBlockCounters _counters;
    private readonly int _byteCapacity;
    private nint _address;

    private NativeBlock(int byteCapacity, int sizeClass, NativeBlockCounters counters)
        : base(sizeClass)
    {
        _byteCapacity = byteCapacity;
        _counters = counters;
    }

    /// <summary>Frees the block of a pool dropped without <c>Dispose</c> (or parked by a dead thread), unless it was freed already or is leased.</summary>
    /// <remarks>A leased block is left alone: a span or pointer from its lease may outlive the lease (CA2015); it leaks visibly, in <see cref="NativeBlockStatistics.LiveBlocks"/>.</remarks>
#pragma warning disable CA2015 // The finalizer frees only blocks that are not leased; no span may point into those.
    ~NativeBlock()
#pragma warning restore CA2015
    {
        if (!IsLeased)
        {
            Free();
        }
    }

    /// <summary>The block's size in bytes.</summary>
    public int ByteCapacity => _byteCapacity;

    /// <summary>The block's address (0 once freed).</summary>
    public nint Address => _address;

    /// <inheritdoc />
    protected override ref T Start => ref *(T*)_address;

    /// <inheritdoc />
    protected override string DisposedObjectName => nameof(NativeBlockLease);

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
