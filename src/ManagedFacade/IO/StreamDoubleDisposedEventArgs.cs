using System.Diagnostics;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamDoubleDisposed"/>: a <c>Dispose</c> of a stream already disposed.</summary>
public sealed class StreamDoubleDisposedEventArgs : StreamEventArgs
{
    internal StreamDoubleDisposedEventArgs(long id, string? tag, StackTrace? allocationStack, StackTrace? disposeStack1, StackTrace? disposeStack2)
        : base(id, tag)
    {
        AllocationStack = allocationStack;
        DisposeStack1 = disposeStack1;
        DisposeStack2 = disposeStack2;
    }

    /// <summary>
    /// Where the stream was created, when the manager tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/>
    /// or guarded mode) and a handler of this event or of <see cref="PooledStreamManager.StreamDisposed"/> was attached
    /// at the first <c>Dispose</c>; otherwise null.
    /// </summary>
    public StackTrace? AllocationStack { get; }

    /// <summary>Where the stream was first disposed, under the same conditions as <see cref="AllocationStack"/>; otherwise null.</summary>
    public StackTrace? DisposeStack1 { get; }

    /// <summary>Where it was disposed again, when the manager tracks streams; otherwise null.</summary>
    public StackTrace? DisposeStack2 { get; }
}
