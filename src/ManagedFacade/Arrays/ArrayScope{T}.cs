using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// An array rented from a <see cref="StripedArrayPool{T}"/> for a synchronous scope:
/// <c>using var scope = pool.RentScoped(n);</c>. Disposing it returns the array once.
/// </summary>
/// <remarks>
/// <para>
/// A <see langword="ref"/> struct: it allocates nothing and cannot be boxed, captured by a lambda, stored in a field of
/// a class or kept across an <see langword="await"/>, so every copy of a scope lives on the thread that rented it.
/// Copies share one generation token, and whichever copy is disposed first returns the array; every other dispose
/// (a second dispose, a copy's dispose, a dispose long after the array went to another renter) does nothing. Because
/// all copies are on one thread that check is a plain compare and store, not an atomic instruction.
/// </para>
/// <para>
/// After the first dispose <see cref="IsActive"/> is false and <see cref="Span"/> and <see cref="Array"/> throw
/// <see cref="ObjectDisposedException"/> on every copy, as they do on every lease type of NativePool. For a lease
/// that must outlive the method (stored, awaited across, used as <see cref="Memory{T}"/>), use
/// <see cref="StripedArrayPool{T}.RentLease"/>.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly ref struct ArrayScope<T>
{
    private readonly LeasedArray<T> _leased;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ArrayScope(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn) =>
        _leased = new LeasedArray<T>(pool, array, length, clearOnReturn);

    /// <summary>True until the scope (or any copy of it) is disposed; false for a default scope.</summary>
    public bool IsActive => _leased.IsActive;

    /// <summary>The requested length (the array may be longer).</summary>
    public int Length => _leased.Length;

    /// <summary>The rented array; its length is at least <see cref="Length"/>.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _leased.Array;
    }

    /// <summary>The first <see cref="Length"/> elements of the array.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _leased.Span;
    }

    /// <summary>Returns the array to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _leased.EndOnOwnerThread();
}
