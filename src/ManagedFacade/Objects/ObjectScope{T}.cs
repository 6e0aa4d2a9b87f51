using System;

namespace NativePool;

/// <summary>
/// An object rented from a <see cref="StripedObjectPool{T}"/> for a synchronous scope: <c>using var lease = pool.RentScoped();</c>.
/// Disposing it returns the object once.
/// </summary>
/// <remarks>
/// A <see langword="ref"/> struct over an <see cref="ObjectLease{T}"/>: it allocates nothing, copies of it return the
/// object once (whichever copy is disposed first), and after that <see cref="Value"/> throws
/// <see cref="ObjectDisposedException"/> on every copy. Being a ref struct, it cannot be stored in a field, boxed,
/// captured or kept across an <see langword="await"/>, so the compiler keeps it inside the scope it was rented for.
/// </remarks>
/// <typeparam name="T">The type of the pooled object.</typeparam>
public readonly ref struct ObjectScope<T> where T : class
{
    private readonly ObjectLease<T> _lease;

    internal ObjectScope(ObjectLease<T> lease) => _lease = lease;

    /// <summary>True until the scope (or any copy of it) is disposed; false for a default scope.</summary>
    public bool IsActive => _lease.IsActive;

    /// <summary>The rented object.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public T Value => _lease.Value;

    /// <summary>Returns the object to its pool, once; later calls and calls on copies do nothing.</summary>
    /// <exception cref="InvalidOperationException">The object was already returned to the pool some other way.</exception>
    public void Dispose() => _lease.Dispose();
}
