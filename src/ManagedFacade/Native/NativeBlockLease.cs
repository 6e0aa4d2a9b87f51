using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A native block leased from a <see cref="NativeBlockPool"/>: <c>using var lease = pool.Rent(n);</c>. Disposing it returns the block once.</summary>
/// <remarks>
/// <para>
/// A struct that allocates nothing. Its address is aligned to the pool's alignment (at least 128 bytes), never moves,
/// and may be handed to native code until the lease is disposed; keep the lease alive meanwhile. A lease never disposed
/// leaks its block (see <see cref="NativeBlockStatistics.LiveBlocks"/>).
/// </para>
/// <para>
/// Copies share one generation: the first dispose of any copy returns the block, every other does nothing, and every
/// accessor throws <see cref="ObjectDisposedException"/> afterwards. A pointer or span taken earlier is not checked.
/// </para>
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public readonly unsafe struct NativeBlockLease : IDisposable, IEquatable<NativeBlockLease>
{
    private readonly NativeLeaseView<byte> _view;

    internal NativeBlockLease(NativeBlockCore<byte> core, NativeBlock<byte> block, long generation, int length) =>
        _view = new NativeLeaseView<byte>(core, block, generation, length);

    /// <summary>The requested length, in bytes.</summary>
    public int Length => _view.Length;

    /// <summary>The block's size in bytes (at least <see cref="Length"/>).</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public int Capacity => _view.Block().ByteCapacity;

    /// <summary>True while the lease has not been disposed (and is not the default value).</summary>
    public bool IsActive => _view.IsActive;

    /// <summary>The block's address.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    [SuppressMessage("Naming", "CA1720:Identifier contains type name", Justification = "It is the block's native pointer.")]
    public void* Pointer
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _view.Pointer;
    }

    /// <summary>The first <see cref="Length"/> bytes of the block.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Span<byte> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _view.Span;
    }

    /// <summary>The first <see cref="Length"/> bytes of the block as memory (for <see cref="Memory{T}"/> consumers); pinning it is free.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Memory<byte> Memory => _view.Memory;

    /// <summary>The first <see cref="Length"/> bytes viewed as <typeparamref name="TView"/> elements (the remainder is cut).</summary>
    /// <typeparam name="TView">An unmanaged type; the block's alignment suits any such type.</typeparam>
    /// <returns>A span of <c>Length / sizeof(TView)</c> elements.</returns>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<TView> AsSpan<TView>()
        where TView : unmanaged => new(_view.Pointer, _view.Length / sizeof(TView));

    /// <summary>The start of the block viewed as one <typeparamref name="TView"/>.</summary>
    /// <typeparam name="TView">An unmanaged type no larger than <see cref="Length"/>.</typeparam>
    /// <returns>A reference to the block's first bytes.</returns>
    /// <exception cref="ArgumentException"><typeparamref name="TView"/> is larger than <see cref="Length"/>.</exception>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref TView AsRef<TView>()
        where TView : unmanaged => ref *AsPointer<TView>();

    /// <summary>The block's address as a <typeparamref name="TView"/> pointer.</summary>
    /// <typeparam name="TView">An unmanaged type no larger than <see cref="Length"/>.</typeparam>
    /// <returns>The block's address.</returns>
    /// <exception cref="ArgumentException"><typeparamref name="TView"/> is larger than <see cref="Length"/>.</exception>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public TView* AsPointer<TView>()
        where TView : unmanaged
    {
        byte* pointer = _view.Pointer;
        if (sizeof(TView) > _view.Length)
        {
            ThrowHelper.ThrowViewLargerThanLease(nameof(TView), _view.Length, typeof(TView), sizeof(TView));
        }

        return (TView*)pointer;
    }

    /// <summary>Returns the block to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _view.Dispose();

    /// <inheritdoc />
    public bool Equals(NativeBlockLease other) => _view.Equals(other._view);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is NativeBlockLease other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _view.GetHashCode();

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(NativeBlockLease left, NativeBlockLease right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(NativeBlockLease left, NativeBlockLease right) => !left.Equals(right);
}
