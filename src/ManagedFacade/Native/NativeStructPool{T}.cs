using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>A pool of native blocks for one unmanaged struct type: leases give <c>ref T Value</c>, <c>T*</c> and <see cref="Span{T}"/> views over aligned memory that never moves, ready to hand to native code.</summary>
/// <remarks>
/// <para>
/// Contract. <see cref="Rent()"/> leases one zeroed <typeparamref name="T"/>; <see cref="Rent(int)"/> leases a zeroed
/// array of <c>count</c> structs; <see cref="RentUninitialized(int)"/> skips the zeroing. Blocks are aligned to the pool's
/// alignment (at least 128 bytes, which covers any struct's own alignment) and come from the same byte classes, budget
/// and engine as <see cref="NativeBlockPool"/>; arrays larger than <see cref="NativeBlockPoolOptions.MaximumBlockSize"/>
/// bytes are allocated exactly and freed when their lease is disposed. Freeing and concurrency are <see cref="NativeBlockPool"/>'s.
/// </para>
/// </remarks>
/// <typeparam name="T">The struct type.</typeparam>
public sealed unsafe class NativeStructPool<T> : IDisposable
    where T : unmanaged
{
    // Null when a process setting is malformed: Shared then throws the setting's exception (see SharedPool).
    private static readonly Func<NativeStructPool<T>> s_createShared = static () => new NativeStructPool<T>(new NativeBlockPoolOptions(), isShared: true);
    private static readonly NativeStructPool<T>? s_shared = SharedPool.TryCreate(s_createShared);

    private readonly NativeBlockCore<T> _core;

    private NativeStructPool(NativeBlockPoolOptions options, bool isShared) => _core = new NativeBlockCore<T>(options, isShared, $"NativeStructPool<{typeof(T).Name}>");

    /// <summary>The process-wide pool for <typeparamref name="T"/> (default options). Its <c>Dispose</c> does nothing.</summary>
    /// <exception cref="InvalidOperationException">A process setting the shared pool reads (the retained-bytes limit, and for arrays the double-return policy) holds a malformed value; the message names it.</exception>
    public static NativeStructPool<T> Shared => SharedPool.OrThrow(s_shared, s_createShared);

    /// <summary>The largest count one lease may hold: <c>int.MaxValue / sizeof(T)</c>.</summary>
    public static int MaximumCount => int.MaxValue / sizeof(T);

    /// <summary>The alignment of every block's address, in bytes.</summary>
    public int Alignment => _core.Alignment;

    /// <summary>The largest block the pool keeps, in bytes.</summary>
    public int MaximumBlockSize => _core.MaximumBlockSize;

    /// <summary>The core (tests).</summary>
    internal NativeBlockCore<T> Core => _core;

    /// <summary>Creates an independent pool with the default options.</summary>
    /// <returns>A new pool; dispose it when done.</returns>
    public static NativeStructPool<T> Create() => new(new NativeBlockPoolOptions(), isShared: false);

    /// <summary>Creates an independent pool.</summary>
    /// <param name="options">The shape of the pool; copied and validated now.</param>
    /// <returns>A new pool; dispose it when done.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static NativeStructPool<T> Create(NativeBlockPoolOptions options) => new(options, isShared: false);

    /// <summary>Leases one <typeparamref name="T"/>, zeroed (<c>default(T)</c>).</summary>
    /// <returns>A lease of length 1.</returns>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NativeStructLease<T> Rent()
    {
        NativeBlock<T> block = _core.Rent(sizeof(T), 1, out long generation);
        *(T*)block.Address = default;
        return new NativeStructLease<T>(_core, block, generation, 1);
    }

    /// <summary>Leases <paramref name="count"/> contiguous <typeparamref name="T"/>s, zeroed.</summary>
    /// <param name="count">0 to <see cref="MaximumCount"/>.</param>
    /// <returns>A lease of length <paramref name="count"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or above <see cref="MaximumCount"/>.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    public NativeStructLease<T> Rent(int count)
    {
        NativeStructLease<T> lease = RentUninitialized(count);
        lease.Span.Clear();
        return lease;
    }

    /// <summary>Leases <paramref name="count"/> contiguous <typeparamref name="T"/>s whose contents are undefined.</summary>
    /// <param name="count">0 to <see cref="MaximumCount"/>.</param>
    /// <returns>A lease of length <paramref name="count"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or above <see cref="MaximumCount"/>.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NativeStructLease<T> RentUninitialized(int count)
    {
        if ((uint)count > (uint)MaximumCount)
        {
            ThrowHelper.ThrowCountOutOfRange(nameof(count), MaximumCount);
        }

        NativeBlock<T> block = _core.Rent(count * sizeof(T), count, out long generation);
        return new NativeStructLease<T>(_core, block, generation, count);
    }

    /// <summary>Frees idle blocks now, as the periodic trim would (everything under high memory pressure).</summary>
    /// <returns>How many blocks were freed.</returns>
    public int Trim() => _core.Trim();

    /// <summary>Frees every block on the stripes and in the calling thread's slots now, whatever its age.</summary>
    /// <returns>How many blocks were freed.</returns>
    public int Clear() => _core.Clear();

    /// <summary>Reads the pool's counters, native allocations and frees included.</summary>
    /// <returns>A snapshot (exact when the pool is quiet).</returns>
    public NativeBlockStatistics GetStatistics() => _core.GetStatistics();

    /// <summary>Frees every pooled block and makes later rents throw <see cref="ObjectDisposedException"/>; blocks still leased are freed when their leases are disposed. Does nothing for <see cref="Shared"/> or a second time.</summary>
    public void Dispose() => _core.Dispose();
}
