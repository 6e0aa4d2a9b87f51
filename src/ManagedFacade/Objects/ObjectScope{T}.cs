using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// An object rented from a <see cref="StripedObjectPool{T}"/> for a synchronous scope: <c>using var lease = pool.RentScoped();</c>.
/// Disposing it returns the object once.
/// </summary>
/// <remarks>
/// <para>
/// A <see langword="ref"/> struct: it allocates nothing and cannot be stored in a field, boxed, captured or kept across
/// an <see langword="await"/>, so it lives on the thread that rented it. It keeps the pool's cache of that thread as the
/// rent found it and returns through it, without the thread-static access a second call into the pool would make, so it
/// costs less than a hand-written <c>try</c>/<c>finally</c> around <c>Get</c> and <c>Return</c>. The first
/// <see cref="Dispose"/> returns the object and empties the scope; a second <see cref="Dispose"/> of the same variable
/// does nothing, and <see cref="Value"/> then throws <see cref="ObjectDisposedException"/>.
/// </para>
/// <para>
/// Copies. A copy of a scope would return the object a second time when it is disposed too. The NativePool analyzers
/// report every copy as error NP0012 at compile time, so the default build has none and pays nothing for them at run
/// time. A guarded pool (or one that tracks leaks) checks at run time as well, with the thread's ledger of live scopes
/// that <see cref="ArrayScope{T}"/> uses: whichever copy is disposed first returns the object, every other dispose does
/// nothing, and <see cref="Value"/> throws on every copy. Where the object must outlive the method or be disposed from
/// another thread, rent with <see cref="StripedObjectPool{T}.RentLease"/>.
/// </para>
/// </remarks>
/// <typeparam name="T">The type of the pooled object.</typeparam>
public ref struct ObjectScope<T> where T : class
{
    // Mutable: Dispose empties the scope so that a second Dispose of the same variable does nothing. Do not make readonly.
    private T? _value;
    private readonly StripedObjectPool<T>? _pool;

    /// <summary>The pool's cache of the renting thread as the rent found it (null if none yet, or if anybody observed pools).</summary>
    private readonly ThreadCache<T>? _cache;

    /// <summary>The scope's number in its thread's ledger in a guarded pool; 0 otherwise.</summary>
    /// <remarks>The ledger is not kept: a ref struct never leaves its thread, so <see cref="ScopeLedger.Current"/> finds it again and the default scope stays two fields wide.</remarks>
    private readonly long _number;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ObjectScope(StripedObjectPool<T> pool, T value, ThreadCache<T>? cache, bool guarded)
    {
        _pool = pool;
        _value = value;
        _cache = cache;
        if (guarded)
        {
            _number = BeginInLedger();
        }
    }

    /// <summary>True until the scope is disposed (in a guarded pool, until any copy is); false for a default scope.</summary>
    public readonly bool IsActive => _value is not null && (_number == 0 || ScopeLedger.Current.IsLive(_number));

    /// <summary>The rented object.</summary>
    /// <exception cref="ObjectDisposedException">The scope has been disposed, or is a default scope.</exception>
    public readonly T Value
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T? value = _value;
            if (value is null || (_number != 0 && !ScopeLedger.Current.IsLive(_number)))
            {
                ThrowHelper.ThrowLeaseEnded();
            }

            return value;
        }
    }

    /// <summary>Returns the object to its pool, once; a second call does nothing.</summary>
    /// <exception cref="InvalidOperationException">The object was already returned to the pool some other way.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        T? value = _value;
        _value = null;
        if (value is not null && (_number == 0 || ScopeLedger.Current.TryEnd(_number)))
        {
            _pool!.ReturnFromScope(value, _cache);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long BeginInLedger() => ScopeLedger.Current.Begin();
}
