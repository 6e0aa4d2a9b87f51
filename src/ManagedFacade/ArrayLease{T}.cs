using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// An array rented from a <see cref="StripedArrayPool{T}"/> for a scope: <c>using var lease = pool.RentScoped(n);</c>.
/// Disposing it returns the array once.
/// </summary>
/// <remarks>
/// The lease is a struct and allocates nothing. Copies of a lease share one generation token, so whichever copy is
/// disposed first returns the array and every other dispose (a second dispose, a copy's dispose, a dispose long after
/// the array went to another renter) does nothing. Do not use the <see cref="Span"/>, <see cref="Memory"/> or
/// <see cref="Array"/> after disposing: the array may belong to another renter by then.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly struct ArrayLease<T> : IDisposable, IEquatable<ArrayLease<T>>
{
    private readonly StripedArrayPool<T>? _pool;
    private readonly T[] _array;
    private readonly LeaseToken? _token;
    private readonly int _generation;
    private readonly int _length;
    private readonly bool _clearOnReturn;

    internal ArrayLease(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn)
    {
        _pool = pool;
        _array = array;
        _length = length;
        _clearOnReturn = clearOnReturn;
        if (pool is not null)
        {
            _token = LeaseToken.Take();
            _generation = _token.Generation;
        }
    }

    /// <summary>The requested length (the array may be longer).</summary>
    public int Length => _length;

    /// <summary>The rented array; its length is at least <see cref="Length"/>.</summary>
    public T[] Array => _array ?? System.Array.Empty<T>();

    /// <summary>The first <see cref="Length"/> elements of the array.</summary>
    public Span<T> Span => new(_array, 0, _length);

    /// <summary>The first <see cref="Length"/> elements of the array, as memory.</summary>
    public Memory<T> Memory => new(_array, 0, _length);

    /// <summary>Returns the array to its pool, once; later calls and calls on copies do nothing.</summary>
    public void Dispose()
    {
        if (_token is not null && _token.TryEnd(_generation))
        {
            _pool!.Return(_array, _clearOnReturn);
        }
    }

    /// <inheritdoc />
    public bool Equals(ArrayLease<T> other) => ReferenceEquals(_array, other._array) && _token == other._token && _generation == other._generation;

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is ArrayLease<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(_array, _generation);

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(ArrayLease<T> left, ArrayLease<T> right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(ArrayLease<T> left, ArrayLease<T> right) => !left.Equals(right);
}
