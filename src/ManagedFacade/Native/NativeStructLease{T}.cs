using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// Native memory for <see cref="Length"/> structs leased from a <see cref="NativeStructPool{T}"/>:
/// <c>using var lease = pool.Rent();</c> then <c>ref T value = ref lease.Value;</c> or pass <see cref="Pointer"/> to native
/// code. Disposing it returns the block once.
/// </summary>
/// <remarks>
/// Its memory, copies and disposal behave as a <see cref="NativeBlockLease"/>'s: no allocation, memory aligned to at least
/// 128 bytes that never moves, one return among all copies, and the lease exception from every accessor once it has
/// ended (a reference, pointer or span taken earlier is not checked). An undisposed lease leaks its block.
/// </remarks>
/// <typeparam name="T">The struct type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly unsafe struct NativeStructLease<T> : IDisposable, IEquatable<NativeStructLease<T>>
    where T : unmanaged
{
    private readonly NativeLeaseView<T> _view;

    internal NativeStructLease(NativeBlockCore<T> core, NativeBlock<T> block, long generation, int length) =>
        _view = new NativeLeaseView<T>(core, block, generation, length);

    /// <summary>The number of structs leased.</summary>
    public int Length => _view.Length;

    /// <summary>True while the lease has not been disposed (and is not the default value).</summary>
    public bool IsActive => _view.IsActive;

    /// <summary>The first struct.</summary>
    /// <exception cref="InvalidOperationException">The lease holds no struct (<see cref="Length"/> is 0).</exception>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public ref T Value
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T* pointer = _view.Pointer;
            if (_view.Length == 0)
            {
                ThrowHelper.ThrowInvalidOperation("The lease holds no struct: it was rented with a count of 0.");
            }

            return ref *pointer;
        }
    }

    /// <summary>The address of the first struct, for native code.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    [SuppressMessage("Naming", "CA1720:Identifier contains type name", Justification = "It is the block's native pointer.")]
    public T* Pointer
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _view.Pointer;
    }

    /// <summary>The <see cref="Length"/> structs.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _view.Span;
    }

    /// <summary>The <see cref="Length"/> structs as memory, for <see cref="Memory{T}"/> consumers; pinning it is free.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Memory<T> Memory => _view.Memory;

    /// <summary>Returns the block to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _view.Dispose();

    /// <inheritdoc />
    public bool Equals(NativeStructLease<T> other) => _view.Equals(other._view);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is NativeStructLease<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _view.GetHashCode();

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(NativeStructLease<T> left, NativeStructLease<T> right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(NativeStructLease<T> left, NativeStructLease<T> right) => !left.Equals(right);
}
