using System.Diagnostics;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamOverCapacity"/>: a request for more than <see cref="PooledStreamManager.MaximumStreamCapacity"/>, about to throw.</summary>
public sealed class StreamOverCapacityEventArgs : StreamEventArgs
{
    internal StreamOverCapacityEventArgs(long id, string? tag, long requestedCapacity, long maximumCapacity, StackTrace? allocationStack)
        : base(id, tag)
    {
        RequestedCapacity = requestedCapacity;
        MaximumCapacity = maximumCapacity;
        AllocationStack = allocationStack;
    }

    /// <summary>The capacity the write, <c>SetLength</c>, <c>Capacity</c> or <c>GetStream</c> needed.</summary>
    public long RequestedCapacity { get; }

    /// <summary>The manager's <see cref="PooledStreamManager.MaximumStreamCapacity"/>.</summary>
    public long MaximumCapacity { get; }

    /// <summary>Where the stream was created, when the manager tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/> or guarded mode); otherwise null.</summary>
    public StackTrace? AllocationStack { get; }
}
