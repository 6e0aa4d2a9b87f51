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
/// Each scope has a number no other scope of its thread ever had, kept in the thread's ledger of live scopes while the
/// scope lives; whichever copy is disposed first removes it and returns the array, and every other dispose (a second
/// dispose, a copy's dispose, a dispose long after the array went to another renter) finds it gone and does nothing.
/// Because all copies are on one thread, that is a plain compare and store of an integer, not an atomic instruction.
/// </para>
/// <para>
/// A scope stays valid until a copy of it is disposed, whatever other code on the thread does: the ledger never ends a
/// live scope to make room, so a correct recursion of any depth keeps every level's scope, and scopes abandoned
/// elsewhere (never disposed) cannot end a correct component's scope. Checking or ending a scope costs the same however
/// many came before. An abandoned scope keeps 8 bytes of the ledger beside the array it leaked; once more than 256
/// scopes are live on one thread, each doubling of the ledger raises a <c>Leak</c> event of the <c>NativePool</c> event
/// source (pool name <c>RentScoped</c>). Dispose every scope (<c>using</c>).
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
    private readonly StripedArrayPool<T>? _pool;
    private readonly T[]? _array;
    private readonly ThreadCache<T[]>? _cache;
    private readonly ScopeLedger? _ledger;
    private readonly long _number;
    private readonly int _length;
    private readonly bool _clearOnReturn;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ArrayScope(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn, ThreadCache<T[]>? cache)
    {
        _pool = pool;
        _array = array;
        _length = length;
        _clearOnReturn = clearOnReturn;
        _cache = cache;

        // The ledger rides on the pool's cache of this thread, so a scope touches no thread static of its own; without
        // a cache (the pool is observed, or the thread may not park items) the thread's own ledger serves.
        ScopeLedger ledger = cache is not null ? cache._scopeLedger ??= new ScopeLedger() : ScopeLedger.Current;
        _ledger = ledger;
        _number = ledger.Begin();
    }

    /// <summary>True until the scope (or any copy of it) is disposed; false for a default scope.</summary>
    public bool IsActive => _ledger is not null && _ledger.IsLive(_number);

    /// <summary>The requested length (the array may be longer).</summary>
    public int Length => _length;

    /// <summary>The rented array; its length is at least <see cref="Length"/>.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            if (!IsActive)
            {
                ThrowHelper.ThrowLeaseEnded();
            }

            return _array!;
        }
    }

    /// <summary>The first <see cref="Length"/> elements of the array.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            if (!IsActive)
            {
                ThrowHelper.ThrowLeaseEnded();
            }

            // The pool checked the array's exact type when it was returned, so no covariance check is needed here.
            return MemoryMarshal.CreateSpan(ref MemoryMarshal.GetArrayDataReference(_array!), _length);
        }
    }

    /// <summary>Returns the array to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        if (_ledger is not null && _ledger.TryEnd(_number) && _pool is not null)
        {
            _pool.Return(_array, _clearOnReturn, _cache);
        }
    }
}
