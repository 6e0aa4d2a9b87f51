using System;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.UsageReport"/>: the manager's byte readings when a stream was created or disposed.</summary>
public sealed class UsageReportEventArgs : EventArgs
{
    internal UsageReportEventArgs(long blockBytesInUse, long blockBytesFree, long bufferBytesInUse, long bufferBytesFree)
    {
        BlockBytesInUse = blockBytesInUse;
        BlockBytesFree = blockBytesFree;
        BufferBytesInUse = bufferBytesInUse;
        BufferBytesFree = bufferBytesFree;
    }

    /// <summary>As <see cref="PooledStreamManager.BlockBytesInUse"/> (RecyclableMemoryStream's small pool in use).</summary>
    public long BlockBytesInUse { get; }

    /// <summary>As <see cref="PooledStreamManager.BlockBytesFree"/> (the small pool's free bytes).</summary>
    public long BlockBytesFree { get; }

    /// <summary>As <see cref="PooledStreamManager.BufferBytesInUse"/> (the large pool in use).</summary>
    public long BufferBytesInUse { get; }

    /// <summary>As <see cref="PooledStreamManager.BufferBytesFree"/> (the large pool's free bytes).</summary>
    public long BufferBytesFree { get; }
}
