using System;
using System.Threading;

namespace NativePool;

/// <summary>Counts one pool's native allocations and frees. Changed only on slow paths (allocation, free).</summary>
/// <remarks>Blocks reference this object rather than their pool, so a block parked in some thread's slot never keeps a dropped pool alive, and a block freed by its finalizer after the pool is gone is still counted.</remarks>
internal sealed class NativeBlockCounters
{
    private long _allocatedBlocks;
    private long _freedBlocks;
    private long _allocatedBytes;
    private long _freedBytes;

    // Volatile reads below: snapshots of counters other threads (and the finalizer thread) add to.

    /// <summary>Blocks allocated with NativeMemory.AlignedAlloc.</summary>
    public long AllocatedBlocks => Volatile.Read(ref _allocatedBlocks);

    /// <summary>Blocks freed with NativeMemory.AlignedFree.</summary>
    public long FreedBlocks => Volatile.Read(ref _freedBlocks);

    /// <summary>Bytes allocated.</summary>
    public long AllocatedBytes => Volatile.Read(ref _allocatedBytes);

    /// <summary>Bytes freed.</summary>
    public long FreedBytes => Volatile.Read(ref _freedBytes);

    /// <summary>Counts one allocation of <paramref name="bytes"/> and tells the GC about the native memory.</summary>
    public void RecordAllocation(long bytes)
    {
        // Interlocked: blocks are allocated by any renting thread.
        Interlocked.Increment(ref _allocatedBlocks);
        Interlocked.Add(ref _allocatedBytes, bytes);
        GC.AddMemoryPressure(bytes);
    }

    /// <summary>Counts one free of <paramref name="bytes"/>.</summary>
    public void RecordFree(long bytes)
    {
        // Interlocked: blocks are freed by returners, trimmers, disposers and the finalizer thread at once.
        Interlocked.Increment(ref _freedBlocks);
        Interlocked.Add(ref _freedBytes, bytes);
        GC.RemoveMemoryPressure(bytes);
    }
}
