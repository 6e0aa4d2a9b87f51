using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// What <see cref="ArrayLease{T}"/> holds: the pool, the array, the requested length, the clearing choice and the
/// <see cref="LeaseHandle"/> whose atomic generation check lets exactly one copy end the lease. (<see cref="ArrayScope{T}"/>
/// keeps its own fields: its copies live on one thread, so it ends through the thread's scope ledger instead.)
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
internal readonly struct LeasedArray<T> : IEquatable<LeasedArray<T>>
{
    private readonly StripedArrayPool<T>? _pool;
    private readonly T[]? _array;
    private readonly LeaseHandle _handle;
    private readonly int _length;
    private readonly bool _clearOnReturn;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public LeasedArray(StripedArrayPool<T>? pool, T[] array, int length, bool clearOnReturn)
    {
        _pool = pool;
        _array = array;
        _length = length;
        _clearOnReturn = clearOnReturn;
        _handle = LeaseHandle.Begin();
    }

    /// <summary>True until the lease (or any copy of it) has ended; false for a default lease.</summary>
    public bool IsActive
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _handle.IsActive;
    }

    /// <summary>The requested length (the array may be longer).</summary>
    public int Length => _length;

    /// <summary>The rented array.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended, or is a default lease.</exception>
    public T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            _handle.ThrowIfEnded();
            return _array!;
        }
    }

    /// <summary>The first <see cref="Length"/> elements, with no covariance check.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended, or is a default lease.</exception>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            _handle.ThrowIfEnded();

            // The pool checked the array's exact type when it was returned, so no covariance check is needed here.
            return MemoryMarshal.CreateSpan(ref MemoryMarshal.GetArrayDataReference(_array!), _length);
        }
    }

    /// <summary>Ends the lease and returns the array, once among all copies, even on several threads at once.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void End()
    {
        if (_handle.TryEnd() && _pool is not null)
        {
            _pool.Return(_array!, _clearOnReturn);
        }
    }

    /// <summary>True when both are copies of one lease.</summary>
    public bool Equals(LeasedArray<T> other) => ReferenceEquals(_array, other._array) && _handle.Equals(other._handle);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is LeasedArray<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _handle.GetHashCode();
}
