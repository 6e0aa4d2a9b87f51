namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamCreated"/>: a stream the manager handed out.</summary>
public sealed class StreamCreatedEventArgs : StreamEventArgs
{
    internal StreamCreatedEventArgs(long id, string? tag, long requestedSize, long actualSize)
        : base(id, tag)
    {
        RequestedSize = requestedSize;
        ActualSize = actualSize;
    }

    /// <summary>The capacity asked of <c>GetStream</c> (the length of the contents it copies in), 0 when none was.</summary>
    public long RequestedSize { get; }

    /// <summary>The capacity the stream is created with: <see cref="RequestedSize"/> rounded up to whole blocks, or to the contiguous buffer's size.</summary>
    public long ActualSize { get; }
}
