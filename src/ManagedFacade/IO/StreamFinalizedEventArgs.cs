namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamFinalized"/>: a stream collected without being disposed.</summary>
/// <remarks>
/// There is no creation stack: a manager that tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/> or
/// guarded mode) holds each stream until it is disposed, so a tracked stream is never finalized;
/// <see cref="PooledStreamManager.GetLeaks"/> names where it was created instead.
/// </remarks>
public sealed class StreamFinalizedEventArgs : StreamEventArgs
{
    internal StreamFinalizedEventArgs(long id, string? tag)
        : base(id, tag)
    {
    }
}
