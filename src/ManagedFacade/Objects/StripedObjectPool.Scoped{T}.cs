using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>The conveniences: scoped leases, scoped calls with state, prefilling.</content>
public sealed partial class StripedObjectPool<T>
{
    /// <summary>Gets an object for a synchronous scope: <c>using var lease = pool.RentScoped();</c> returns it once, at the end of the scope.</summary>
    /// <returns>A scope whose <see cref="ObjectScope{T}.Value"/> is the object; disposing it returns the object once.</returns>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    /// <remarks>
    /// The scope is a <see langword="ref"/> struct and allocates nothing: it cannot be stored in a field, boxed or kept
    /// across an <see langword="await"/>. Where the object must outlive the method, rent with <see cref="RentLease"/>.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ObjectScope<T> RentScoped()
    {
        // As Get, keeping the thread's cache for the scope's return.
        ThreadCache<T>? cache = CurrentCache();
        return cache is not null && _fastOpen ? new(this, GetFast(cache, pairs: true), cache, guarded: false) : RentScopedMiss();
    }

    /// <summary>Every scope's rent the memo does not serve; apart, so the inlined rent takes no local's address. A pool that guards or tracks its objects is observed
    /// from its creation on (its fast paths never open), so only a get in full (no cache) may need the ledger.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private ObjectScope<T> RentScopedMiss()
    {
        T item = GetMiss(out ThreadCache<T>? cache);
        return new(this, item, cache, guarded: cache is null && _guard is not null);
    }

    /// <summary>Gets an object under a lease, which may be stored or kept across an <see langword="await"/>: <c>using var lease = pool.RentLease();</c> returns it once.</summary>
    /// <returns>A lease whose <see cref="ObjectLease{T}.Value"/> is the object; disposing the lease returns it.</returns>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ObjectLease<T> RentLease() => new(this, Get());

    /// <summary>
    /// Gets an object, runs <paramref name="action"/> on it with <paramref name="state"/>, and returns it, also when
    /// <paramref name="action"/> throws. Pass a static lambda and the call allocates nothing:
    /// <c>pool.Scoped(text, static (sb, t) =&gt; sb.Append(t));</c>.
    /// </summary>
    /// <typeparam name="TState">What the action needs besides the object.</typeparam>
    /// <param name="state">Passed to <paramref name="action"/>.</param>
    /// <param name="action">The work; must not keep the object or return it itself.</param>
    /// <exception cref="ArgumentNullException"><paramref name="action"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    public void Scoped<TState>(TState state, Action<T, TState> action)
    {
        if (action is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(action));
        }

        _ = Scoped((action, state), static (item, call) =>
        {
            call.action(item, call.state);
            return 0;
        });
    }

    /// <summary>
    /// Gets an object, runs <paramref name="func"/> on it with <paramref name="state"/>, returns the object (also when
    /// <paramref name="func"/> throws) and then the result: <c>string s = pool.Scoped(42, static (sb, n) =&gt; sb.Append(n).ToString());</c>.
    /// </summary>
    /// <typeparam name="TState">What the function needs besides the object.</typeparam>
    /// <typeparam name="TResult">What the function computes; it must not be the pooled object itself.</typeparam>
    /// <param name="state">Passed to <paramref name="func"/>.</param>
    /// <param name="func">The work; must not keep the object or return it itself.</param>
    /// <returns>What <paramref name="func"/> returned.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="func"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    public TResult Scoped<TState, TResult>(TState state, Func<T, TState, TResult> func)
    {
        if (func is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(func));
        }

        T item = Get();
        try
        {
            return func(item, state);
        }
        finally
        {
            Return(item);
        }
    }

    /// <summary>
    /// Warms the pool: gets <paramref name="count"/> objects at once (at most <see cref="MaximumRetained"/>), which
    /// creates those the pool lacks, and returns them all without running the policy. Afterwards the pool holds as many
    /// of them as one thread can place (see the class remarks on the bound); the rest are dropped.
    /// </summary>
    /// <param name="count">How many objects the pool should hold, 0 or more.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    public void Prefill(int count)
    {
        if (count < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The number of objects to prefill must not be negative.");
        }

        count = Math.Min(count, _maximumRetained);
        var items = new T[count];
        int taken = 0;
        try
        {
            while (taken < count)
            {
                items[taken] = Get();
                taken++;
            }
        }
        finally
        {
            // Fresh or already reset: they go back as they are, the warmest (first taken) last so it lands in the slot.
            for (int i = taken - 1; i >= 0; i--)
            {
                ReturnInFull(items[i], prefilled: true);
            }
        }
    }
}
