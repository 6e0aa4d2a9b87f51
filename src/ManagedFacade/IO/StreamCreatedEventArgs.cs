using System;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamCreated"/>: a stream the manager handed out.</summary>
public sealed class StreamCreatedEventArgs : EventArgs
{
    internal StreamCreatedEventArgs(long id, string? tag, long requestedSize, long actualSize)
    {
        Id = id;
        Tag = tag;
        RequestedSize = requestedSize;
        ActualSize = actualSize;
    }

    /// <summary>The stream's <see cref="PooledStream.Id"/>.</summary>
    public long Id { get; }

    /// <summary>The stream's <see cref="PooledStream.Tag"/>, or null.</summary>
    public string? Tag { get; }

    /// <summary>The capacity asked of <c>GetStream</c> (the length of the contents it copies in), 0 when none was.</summary>
    public long RequestedSize { get; }

    /// <summary>The capacity the stream is created with: <see cref="RequestedSize"/> rounded up to whole blocks, or to the contiguous buffer's size.</summary>
    public long ActualSize { get; }
}
