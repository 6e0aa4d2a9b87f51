using System;
using System.Diagnostics;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamDisposed"/>: a stream's first <c>Dispose</c>.</summary>
public sealed class StreamDisposedEventArgs : StreamEventArgs
{
    internal StreamDisposedEventArgs(long id, string? tag, long length, TimeSpan? lifetime, StackTrace? allocationStack, StackTrace? disposeStack)
        : base(id, tag)
    {
        Length = length;
        Lifetime = lifetime;
        AllocationStack = allocationStack;
        DisposeStack = disposeStack;
    }

    /// <summary>The stream's length when it was disposed.</summary>
    public long Length { get; }

    /// <summary>The time from the stream's creation to its disposal; null for a stream created while no handler of <see cref="PooledStreamManager.StreamDisposed"/> was attached (its creation time is taken only then).</summary>
    public TimeSpan? Lifetime { get; }

    /// <summary>Where the stream was created, when the manager tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/> or guarded mode); otherwise null.</summary>
    public StackTrace? AllocationStack { get; }

    /// <summary>Where the stream was disposed, when the manager tracks streams; otherwise null.</summary>
    public StackTrace? DisposeStack { get; }
}
