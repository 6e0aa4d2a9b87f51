namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.BufferDiscarded"/>: a block or buffer a stream gave back that the manager's pool did not keep.</summary>
public sealed class BufferDiscardedEventArgs : StreamEventArgs
{
    internal BufferDiscardedEventArgs(long id, string? tag, StreamBufferKind bufferKind, StreamBufferDiscardReason reason)
        : base(id, tag)
    {
        BufferKind = bufferKind;
        Reason = reason;
    }

    /// <summary>A block, or a contiguous buffer.</summary>
    public StreamBufferKind BufferKind { get; }

    /// <summary>Why the pool did not keep it.</summary>
    public StreamBufferDiscardReason Reason { get; }
}
