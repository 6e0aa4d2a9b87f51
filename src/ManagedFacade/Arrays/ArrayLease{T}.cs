using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// An array rented from a <see cref="StripedArrayPool{T}"/> under a lease that may outlive a method: <c>using var lease = pool.RentLease(n);</c>.
/// Disposing it returns the array once. For a synchronous scope, <see cref="StripedArrayPool{T}.RentScoped(int, bool)"/>
/// gives an <see cref="ArrayScope{T}"/>, whose copies all live on one thread, so its dispose needs no atomic instruction.
/// </summary>
/// <remarks>
/// A struct that allocates nothing. Copies share one generation token: the first dispose of
/// any copy returns the array, every other does nothing, and afterwards <see cref="Span"/>, <see cref="Memory"/> and
/// <see cref="Array"/> throw <see cref="ObjectDisposedException"/> (a span or memory taken before is not checked).
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly struct ArrayLease<T> : IDisposable, IEquatable<ArrayLease<T>>
{
    private readonly StripedArrayPool<T>? _pool;
    private readonly T[]? _array;
    private readonly LeaseHandle _handle;
    private readonly int _length;
    private readonly bool _clearOnReturn;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ArrayLease(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn)
    {
        _pool = pool;
        _array = array;
        _length = length;
        _clearOnReturn = clearOnReturn;
        _handle = LeaseHandle.Begin();
    }

    /// <summary>True until the lease (or any copy of it) is disposed; false for a default lease.</summary>
    public bool IsActive
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _handle.IsActive;
    }

    /// <summary>The requested length (the array may be longer).</summary>
    public int Length => _length;

    /// <summary>The rented array; its length is at least <see cref="Length"/>.</summary>
    /// <exception cref="ObjectDisposedException">The lease has been disposed, or is a default lease.</exception>
    public T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            _handle.ThrowIfEnded();
            return _array!;
        }
    }

    /// <summary>The first <see cref="Length"/> elements of the array.</summary>
    /// <exception cref="ObjectDisposedException">The lease has been disposed, or is a default lease.</exception>
    public Span<T> Span => new(Array, 0, Length);

    /// <summary>The first <see cref="Length"/> elements of the array, as memory.</summary>
    /// <exception cref="ObjectDisposedException">The lease has been disposed, or is a default lease.</exception>
    public Memory<T> Memory => new(Array, 0, Length);

    /// <summary>Returns the array to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        if (_handle.TryEnd() && _pool is not null)
        {
            _pool.Return(_array!, _clearOnReturn);
        }
    }

    /// <inheritdoc />
    public bool Equals(ArrayLease<T> other) => ReferenceEquals(_array, other._array) && _handle.Equals(other._handle);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is ArrayLease<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _handle.GetHashCode();

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(ArrayLease<T> left, ArrayLease<T> right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(ArrayLease<T> left, ArrayLease<T> right) => !left.Equals(right);
}
