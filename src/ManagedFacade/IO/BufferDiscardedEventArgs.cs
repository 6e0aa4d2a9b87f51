using System;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.BufferDiscarded"/>: a block or buffer a stream gave back that the manager's pool did not keep.</summary>
public sealed class BufferDiscardedEventArgs : EventArgs
{
    internal BufferDiscardedEventArgs(long id, string? tag, StreamBufferKind bufferKind, StreamBufferDiscardReason reason)
    {
        Id = id;
        Tag = tag;
        BufferKind = bufferKind;
        Reason = reason;
    }

    /// <summary>The <see cref="PooledStream.Id"/> of the stream that gave it back.</summary>
    public long Id { get; }

    /// <summary>That stream's <see cref="PooledStream.Tag"/>, or null.</summary>
    public string? Tag { get; }

    /// <summary>A block, or a contiguous buffer.</summary>
    public StreamBufferKind BufferKind { get; }

    /// <summary>Why the pool did not keep it.</summary>
    public StreamBufferDiscardReason Reason { get; }
}
