using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>What <see cref="NativeBlockLease"/> and <see cref="NativeStructLease{T}"/> share: the core that takes the block back, the lease of the block, the lease's length, and the views every accessor checks the lease for.</summary>
/// <typeparam name="T">The element type of the views.</typeparam>
[StructLayout(LayoutKind.Auto)]
internal readonly unsafe struct NativeLeaseView<T> : IEquatable<NativeLeaseView<T>>
    where T : unmanaged
{
    private readonly NativeBlockCore<T>? _core;
    private readonly PinnedLease<NativeBlock<T>, T> _lease;
    private readonly int _length;

    public NativeLeaseView(NativeBlockCore<T> core, NativeBlock<T> block, long generation, int length)
    {
        _core = core;
        _lease = new PinnedLease<NativeBlock<T>, T>(block, generation);
        _length = length;
    }

    /// <summary>The requested length, in elements.</summary>
    public int Length => _length;

    /// <summary>True while the lease has not been disposed (and is not the default value).</summary>
    public bool IsActive
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _lease.IsActive;
    }

    /// <summary>The block's address.</summary>
    public T* Pointer
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => (T*)_lease.Block().Address;
    }

    /// <summary>The first <see cref="Length"/> elements of the block.</summary>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(Pointer, _length);
    }

    /// <summary>The first <see cref="Length"/> elements of the block as memory; pinning it is free.</summary>
    public Memory<T> Memory => _lease.Block().GetMemory();

    /// <summary>The block of the active lease.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NativeBlock<T> Block() => _lease.Block();

    /// <summary>Returns the block to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        NativeBlock<T>? block = _lease.UncheckedBlock;
        if (block is not null)
        {
            _core!.Return(block, _lease.Generation);
        }
    }

    /// <summary>True when both views belong to copies of one lease.</summary>
    public bool Equals(NativeLeaseView<T> other) => _lease.Equals(other._lease);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is NativeLeaseView<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _lease.GetHashCode();
}
