using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// An object rented from a <see cref="StripedObjectPool{T}"/> under a lease that may be stored, passed on or kept across an <see langword="await"/>: <c>using var lease = pool.RentLease();</c>.
/// Disposing it returns the object once.
/// </summary>
/// <remarks>
/// The lease is a struct and allocates nothing in steady state. Copies of a lease share one generation token, so
/// whichever copy is disposed first returns the object and every other dispose (a second dispose, a copy's dispose, a
/// dispose long after the object went to another renter) does nothing. After the first dispose <see cref="IsActive"/> is
/// false and <see cref="Value"/> throws <see cref="ObjectDisposedException"/> on every copy (a reference taken before the
/// dispose still points at the object, which may belong to another renter by then). A default lease holds nothing: it is
/// not active and its dispose does nothing.
/// </remarks>
/// <typeparam name="T">The type of the pooled object.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly struct ObjectLease<T> : IDisposable, IEquatable<ObjectLease<T>> where T : class
{
    private readonly StripedObjectPool<T>? _pool;
    private readonly T? _value;
    private readonly LeaseHandle _handle;

    internal ObjectLease(StripedObjectPool<T> pool, T value)
    {
        _pool = pool;
        _value = value;
        _handle = LeaseHandle.Begin();
    }

    /// <summary>True until the lease (or any copy of it) is disposed; false for a default lease.</summary>
    public bool IsActive => _handle.IsActive;

    /// <summary>The rented object.</summary>
    /// <exception cref="ObjectDisposedException">The lease has been disposed, or is a default lease.</exception>
    public T Value
    {
        get
        {
            _handle.ThrowIfEnded();
            return _value!;
        }
    }

    /// <summary>Returns the object to its pool, once; later calls and calls on copies do nothing.</summary>
    /// <exception cref="InvalidOperationException">The object was already returned to the pool some other way.</exception>
    public void Dispose()
    {
        if (_handle.TryEnd())
        {
            _pool!.Return(_value!);
        }
    }

    /// <inheritdoc />
    public bool Equals(ObjectLease<T> other) => ReferenceEquals(_value, other._value) && _handle.Equals(other._handle);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is ObjectLease<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _handle.GetHashCode();

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(ObjectLease<T> left, ObjectLease<T> right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(ObjectLease<T> left, ObjectLease<T> right) => !left.Equals(right);
}
