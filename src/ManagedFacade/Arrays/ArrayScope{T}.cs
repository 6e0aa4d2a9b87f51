using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>An array rented from a <see cref="StripedArrayPool{T}"/> for a synchronous scope: <c>using var scope = pool.RentScoped(n);</c>. Disposing it returns the array once.</summary>
/// <remarks>
/// <para>
/// A <see langword="ref"/> struct: it allocates nothing, lives on the renting thread and costs what a hand-written
/// <c>try</c>/<c>finally</c> costs. The first <see cref="Dispose"/> returns the array and empties the scope; after it,
/// <see cref="IsActive"/> is false and <see cref="Span"/> and <see cref="Array"/> throw <see cref="ObjectDisposedException"/>.
/// A <see langword="default"/> scope is in that state from the start, so it stands for "nothing rented" where a site
/// rents only above a size (<c>using var scope = n &lt;= 128 ? default : pool.RentScoped(n);</c> beside a
/// <c>stackalloc</c>): disposing it does nothing.
/// </para>
/// <para>
/// A copy would return the array again: the analyzers report every copy as error NP0012, and a guarded (or leak-tracking)
/// pool also checks at run time through the thread's ledger of live scopes, so only the first dispose of any copy
/// returns. To outlive the method, use <see cref="StripedArrayPool{T}.RentLease"/>.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public ref struct ArrayScope<T>
{
    // Mutable: Dispose empties the scope so that a second Dispose of the same variable does nothing. Do not make readonly.
    private T[]? _array;
    private readonly StripedArrayPool<T>? _pool;
    private readonly ThreadCache<T[]>? _cache;
    private readonly ScopeLedger? _ledger;
    private readonly long _number;
    private readonly int _length;
    private readonly bool _clearOnReturn;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ArrayScope(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn, ThreadCache<T[]>? cache, bool guarded)
    {
        _pool = pool;
        _array = array;
        _length = length;
        _clearOnReturn = clearOnReturn;
        _cache = cache;
        if (guarded)
        {
            (_ledger, _number) = BeginInLedger(cache);
        }
    }

    /// <summary>Whether the scope still holds its array: false after <see cref="Dispose"/> (in guarded mode, after any copy's).</summary>
    public readonly bool IsActive => _array is not null && (_ledger is null || _ledger.IsLive(_number));

    /// <summary>The length asked for: the length of <see cref="Span"/> (the array may be longer).</summary>
    public readonly int Length => _length;

    /// <summary>The rented array, which may be longer than <see cref="Length"/>.</summary>
    /// <exception cref="ObjectDisposedException">The scope was disposed.</exception>
    public readonly T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T[]? array = _array;
            if (array is null || (_ledger is not null && !_ledger.IsLive(_number)))
            {
                ThrowHelper.ThrowLeaseEnded();
            }

            return array;
        }
    }

    /// <summary>The first <see cref="Length"/> elements of the rented array.</summary>
    /// <exception cref="ObjectDisposedException">The scope was disposed.</exception>
    public readonly Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T[]? array = _array;
            if (array is null || (_ledger is not null && !_ledger.IsLive(_number)))
            {
                ThrowHelper.ThrowLeaseEnded();
            }

            // The pool checked the array's exact type when it was returned, so no covariance check is needed here.
            return MemoryMarshal.CreateSpan(ref MemoryMarshal.GetArrayDataReference(array), _length);
        }
    }

    /// <summary>Returns the array to the pool, once; a second call does nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        T[]? array = _array;
        _array = null;
        if (array is not null && _pool is not null && (_ledger is null || _ledger.TryEnd(_number)))
        {
            _pool.Return(array, _clearOnReturn, _cache);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (ScopeLedger Ledger, long Number) BeginInLedger(ThreadCache<T[]>? cache)
    {
        // The ledger rides on the pool's cache of this thread when there is one; otherwise the thread's own ledger serves.
        ScopeLedger ledger = cache is not null
            ? cache.Ledger ??= new ScopeLedger()
            : ScopeLedger.Current;
        return (ledger, ledger.Begin());
    }
}
