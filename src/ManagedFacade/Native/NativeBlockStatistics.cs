using System;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A snapshot of one native pool's counters: the engine's item counts plus the native allocations behind them.</summary>
/// <remarks>
/// <see cref="Blocks"/> counts leases like every NativePool pool (rented, returned, pooled, dropped, trimmed; its
/// <c>PooledBytes</c> are native bytes). The native counters say what the allocator saw: every block allocated with
/// <c>NativeMemory.AlignedAlloc</c> and every block freed, exactly once each. After the pool is disposed and every lease
/// has been disposed, <see cref="LiveBlocks"/> is 0: disposal frees the blocks on the stripes and in every thread's
/// slots, each exactly once.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public readonly record struct NativeBlockStatistics
{
    /// <summary>The engine's counters (items are blocks; bytes are native bytes).</summary>
    public PoolStatistics Blocks { get; init; }

    /// <summary>Blocks allocated with <c>NativeMemory.AlignedAlloc</c>.</summary>
    public long BlocksAllocated { get; init; }

    /// <summary>Blocks freed with <c>NativeMemory.AlignedFree</c>.</summary>
    public long BlocksFreed { get; init; }

    /// <summary>Native bytes allocated and not freed: pooled plus outstanding.</summary>
    public long LiveBytes { get; init; }

    /// <summary>Blocks allocated and not freed.</summary>
    public long LiveBlocks => BlocksAllocated - BlocksFreed;

    /// <summary>Native bytes sitting in the pool (stripes and thread slots).</summary>
    public long PooledBytes => Blocks.PooledBytes;

    /// <summary>Native bytes held by leases (and by slots of threads that died and were not finalized yet).</summary>
    public long OutstandingBytes => LiveBytes - PooledBytes;

    /// <inheritdoc />
    public override string ToString() =>
        FormattableString.Invariant(
            $"{Blocks}; native: allocated {BlocksAllocated}, freed {BlocksFreed}, live {LiveBytes} B, outstanding {OutstandingBytes} B");
}
