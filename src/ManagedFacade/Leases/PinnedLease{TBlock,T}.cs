using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary><see cref="LeaseHandle"/>'s counterpart for pinned memory: the generation lives on the block, because the block is itself the memory manager a lease's <see cref="Memory{T}"/> reaches, so it must know on its own whether it is leased.</summary>
/// <typeparam name="TBlock">The block type.</typeparam>
/// <typeparam name="T">The element type of the block's views.</typeparam>
[StructLayout(LayoutKind.Auto)]
internal readonly struct PinnedLease<TBlock, T> : IEquatable<PinnedLease<TBlock, T>>
    where TBlock : PinnedBlockManager<T>
    where T : unmanaged
{
    private readonly TBlock? _block;
    private readonly long _generation;

    /// <summary>The lease of <paramref name="block"/> made at <paramref name="generation"/>.</summary>
    public PinnedLease(TBlock block, long generation)
    {
        _block = block;
        _generation = generation;
    }

    /// <summary>True until the lease (or any copy of it) has ended; false for a default lease.</summary>
    public bool IsActive
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _block is not null && _block.Generation == _generation;
    }

    /// <summary>The block, or null for a default lease (whether or not the lease has ended).</summary>
    public TBlock? UncheckedBlock => _block;

    /// <summary>The lease's generation.</summary>
    public long Generation => _generation;

    /// <summary>The block of an active lease.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended, or is a default lease.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public TBlock Block()
    {
        TBlock? block = _block;
        if (block is null || block.Generation != _generation)
        {
            ThrowHelper.ThrowLeaseEnded();
        }

        return block;
    }

    /// <summary>True when both leases are copies of one lease.</summary>
    public bool Equals(PinnedLease<TBlock, T> other) => ReferenceEquals(_block, other._block) && _generation == other._generation;

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is PinnedLease<TBlock, T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(_block, _generation);
}
