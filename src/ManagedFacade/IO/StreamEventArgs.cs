using System;

namespace NativePool;

/// <summary>The data every <see cref="PooledStreamManager"/> event about one stream carries: which stream it is.</summary>
public abstract class StreamEventArgs : EventArgs
{
    private protected StreamEventArgs(long id, string? tag)
    {
        Id = id;
        Tag = tag;
    }

    /// <summary>The stream's <see cref="PooledStream.Id"/> (for <see cref="PooledStreamManager.BufferDiscarded"/>, of the stream that gave the buffer back).</summary>
    public long Id { get; }

    /// <summary>The stream's <see cref="PooledStream.Tag"/>, or null.</summary>
    public string? Tag { get; }
}
