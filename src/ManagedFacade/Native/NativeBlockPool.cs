using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// A pool of aligned native memory blocks (from <c>NativeMemory.AlignedAlloc</c>) for interop buffers: blocks never move,
/// start on at least a 128-byte boundary, come in power-of-two byte classes, and are handed out as allocation-free
/// <see cref="NativeBlockLease"/>s.
/// </summary>
/// <remarks>
/// <para>
/// Contract. <c>Rent(n)</c> for n ≥ 0 leases a block of at least <c>n</c> bytes whose contents are undefined; the lease's
/// <see cref="NativeBlockLease.Length"/> is <c>n</c>. Blocks up to <see cref="MaximumBlockSize"/> are pooled in classes
/// of 128 · 2^k bytes; larger ones are allocated at their size and freed when the lease is disposed. Disposing the
/// lease returns the block once; a copy's or a second dispose does nothing.
/// </para>
/// <para>
/// Every block is freed exactly once: past the byte budget, when trimmed, when the pool is disposed, or by its header's
/// finalizer as a backstop. A leased block is never freed by the pool: a lease never disposed leaks it, visibly, in
/// <see cref="NativeBlockStatistics.LiveBlocks"/>. Concurrency is the engine's; a lease costs one uncontended
/// compare-and-swap when it ends.
/// </para>
/// </remarks>
public sealed class NativeBlockPool : IDisposable
{
    // Null when a process setting is malformed: Shared then throws the setting's exception (see SharedPool).
    private static readonly Func<NativeBlockPool> s_createShared = static () => new NativeBlockPool(new NativeBlockPoolOptions(), isShared: true);
    private static readonly NativeBlockPool? s_shared = SharedPool.TryCreate(s_createShared);

    private readonly NativeBlockCore<byte> _core;

    private NativeBlockPool(NativeBlockPoolOptions options, bool isShared) => _core = new NativeBlockCore<byte>(options, isShared, nameof(NativeBlockPool));

    /// <summary>The process-wide pool (default options). Its <c>Dispose</c> does nothing.</summary>
    /// <exception cref="InvalidOperationException">A process setting the shared pool reads (the retained-bytes limit, and for arrays the double-return policy) holds a malformed value; the message names it.</exception>
    public static NativeBlockPool Shared => SharedPool.OrThrow(s_shared, s_createShared);

    /// <summary>The alignment of every block's address, in bytes.</summary>
    public int Alignment => _core.Alignment;

    /// <summary>The largest block the pool keeps, in bytes; larger rents are allocated exactly and freed on return.</summary>
    public int MaximumBlockSize => _core.MaximumBlockSize;

    /// <summary>The number of per-core stripes of each size class.</summary>
    public int StripeCount => _core.StripeCount;

    /// <summary>The core (tests).</summary>
    internal NativeBlockCore<byte> Core => _core;

    /// <summary>Creates an independent pool with the default options.</summary>
    /// <returns>A new pool; dispose it when done.</returns>
    public static NativeBlockPool Create() => new(new NativeBlockPoolOptions(), isShared: false);

    /// <summary>Creates an independent pool.</summary>
    /// <param name="options">The shape of the pool; copied and validated now.</param>
    /// <returns>A new pool; dispose it when done.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static NativeBlockPool Create(NativeBlockPoolOptions options) => new(options, isShared: false);

    /// <summary>Leases a block of at least <paramref name="byteLength"/> bytes; its contents are undefined.</summary>
    /// <param name="byteLength">The bytes needed, 0 or more.</param>
    /// <returns>The lease; dispose it to return the block.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="byteLength"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    /// <exception cref="OutOfMemoryException">The native allocation failed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NativeBlockLease Rent(int byteLength)
    {
        if (byteLength < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(byteLength), "The byte length must not be negative.");
        }

        NativeBlock<byte> block = _core.Rent(byteLength, byteLength, out long generation);
        return new NativeBlockLease(_core, block, generation, byteLength);
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
