using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>A pooled <see cref="MemoryManager{T}"/> over memory that never moves (a pinned array, a native block), stamped with the generation of its current lease.</summary>
/// <remarks>
/// <see cref="Generation"/> is the current lease's number while leased and 0 while pooled. <see cref="Lease"/> publishes
/// the next number with a plain store (the renter holds the block alone); <see cref="TryEndLease"/> puts 0 back with one
/// compare-and-swap from the lease's number, so exactly one end of a lease wins and a stale lease never ends a newer one
/// (numbers never repeat: <see cref="LeaseGeneration"/>). <see cref="GetSpan"/> and <see cref="Pin"/> throw
/// <see cref="ObjectDisposedException"/> while not leased; <see cref="Pin"/> makes no GCHandle.
/// </remarks>
/// <typeparam name="T">The element type of the current lease's views.</typeparam>
internal abstract unsafe class PinnedBlockManager<T> : MemoryManager<T>
    where T : unmanaged
{
    private readonly int _sizeClass;
    private int _length;

    // Leases made of this block so far; read and written only by the renter holding the block.
    private long _leases;

    // The current lease's number, or 0 while the block is pooled.
    private long _generation;

    /// <summary>Creates a block of size class <paramref name="sizeClass"/> that is not leased.</summary>
    protected PinnedBlockManager(int sizeClass) => _sizeClass = sizeClass;

    /// <summary>The size class, or -1 for a block larger than the pool's largest class.</summary>
    public int SizeClass => _sizeClass;

    /// <summary>Elements of <typeparamref name="T"/> in the current lease.</summary>
    public int Length => _length;

    /// <summary>The generation: the current lease's number while leased, 0 while pooled.</summary>
    public long Generation
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => LeaseGeneration.Read(ref _generation);
    }

    /// <summary>True while the block is leased.</summary>
    public bool IsLeased
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Generation != 0;
    }

    /// <summary>Moves the pooled block on as <paramref name="generation"/> leases would: its next lease is <paramref name="generation"/> + 1 (tests).</summary>
    internal void SetGenerationForTest(long generation) => _leases = generation;

    /// <summary>The first element of the memory; only valid while the memory exists (always, for a leased block).</summary>
    protected abstract ref T Start { get; }

    /// <summary>The object name of the <see cref="ObjectDisposedException"/> thrown while the block is not leased.</summary>
    protected abstract string DisposedObjectName { get; }

    /// <summary>Starts a lease of <paramref name="length"/> elements; the caller holds the block exclusively.</summary>
    /// <returns>The lease's generation: its number, never 0.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long Lease(int length)
    {
        _length = length;

        // A plain store is enough: the block came out of the pool (0), and a stale ender only ever swaps out the number
        // its own lease had, which no later lease has. (0 comes round only after 2^64 leases.)
        long generation = ++_leases;
        LeaseGeneration.Write(ref _generation, generation);
        return generation;
    }

    /// <summary>Ends the lease of <paramref name="generation"/>; true for exactly one caller per lease.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEndLease(long generation)
    {
        // Settles two ends of one lease (copies, or two threads): only the one that swaps its number for 0 wins.
        return Interlocked.CompareExchange(ref _generation, 0, generation) == generation;
    }

    /// <summary>Ends the current lease with a plain store: the caller took the lease's only handle with an exchange, so nobody else can end it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndHeldLease() => LeaseGeneration.Write(ref _generation, 0);

    /// <summary>The current lease's elements.</summary>
    /// <exception cref="ObjectDisposedException">The block is not leased.</exception>
    public override Span<T> GetSpan()
    {
        ThrowIfNotLeased();

        // A reference (not a raw pointer), so a span over a managed array keeps the array alive on its own.
        return MemoryMarshal.CreateSpan(ref Start, _length);
    }

    /// <summary>The address of element <paramref name="elementIndex"/>; no GCHandle (the memory never moves).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="elementIndex"/> is negative or past the end.</exception>
    /// <exception cref="ObjectDisposedException">The block is not leased.</exception>
    public override MemoryHandle Pin(int elementIndex = 0)
    {
        ThrowIfNotLeased();
        if ((uint)elementIndex > (uint)_length)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(elementIndex), "The element index must be from 0 to the memory's length.");
        }

        // This manager as pinnable keeps the memory reachable (and a native block unfinalized) while the handle is held.
        return new MemoryHandle(Unsafe.AsPointer(ref Unsafe.Add(ref Start, elementIndex)), default, this);
    }

    /// <summary>Does nothing: the memory never moves.</summary>
    public override void Unpin()
    {
    }

    /// <summary>The current lease's memory: exactly <see cref="Length"/> elements (unchecked; callers check the lease).</summary>
    internal Memory<T> GetMemory() => CreateMemory(_length);

    /// <summary>Throws <see cref="ObjectDisposedException"/> while the block is not leased.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    protected void ThrowIfNotLeased()
    {
        if (!IsLeased)
        {
            ThrowHelper.ThrowObjectDisposed(DisposedObjectName);
        }
    }
}
