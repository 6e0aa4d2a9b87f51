using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>The manager's events — RecyclableMemoryStreamManager's, raised in process — and the hooks its streams call, which also write the <c>NativePool</c> event source's stream events.</content>
/// <remarks>
/// Each event is raised on the thread whose call caused it, and a handler's exception propagates to that call; a handler
/// sees what happens after it is attached. A manager nobody observes pays a few field tests (<see cref="ObservesStreams"/>) per stream created and disposed;
/// the other events are raised from paths already out of line.
/// </remarks>
public sealed partial class PooledStreamManager
{
    /// <summary>The frames a dispose stack leaves out: <see cref="OnStreamDisposedObserved"/>, <see cref="OnStreamDisposed"/> and the stream's <c>Dispose</c>.</summary>
    private const int DisposeFrames = 3;

    /// <summary>The frames the stack of a second <c>Dispose</c> or of <c>ToArray</c> leaves out: the hook and the stream's member.</summary>
    private const int MemberFrames = 2;

    /// <summary>A stream was created (by any <c>GetStream</c>), before its first storage is rented.</summary>
    public event EventHandler<StreamCreatedEventArgs>? StreamCreated;

    /// <summary>A stream was disposed for the first time.</summary>
    public event EventHandler<StreamDisposedEventArgs>? StreamDisposed;

    /// <summary>A stream already disposed was disposed again; in guarded mode the misuse policy then applies (by default the <c>Dispose</c> throws).</summary>
    public event EventHandler<StreamDoubleDisposedEventArgs>? StreamDoubleDisposed;

    /// <summary>A stream was collected without being disposed: a leak, whose storage is counted as dropped. Raised on the finalizer thread.</summary>
    public event EventHandler<StreamFinalizedEventArgs>? StreamFinalized;

    /// <summary>A write, <c>SetLength</c>, <c>Capacity</c> or <c>GetStream</c> needed more than <see cref="MaximumStreamCapacity"/>; it throws <see cref="System.IO.IOException"/> after the event.</summary>
    public event EventHandler<StreamOverCapacityEventArgs>? StreamOverCapacity;

    /// <summary><see cref="PooledStream.ToArray"/> was called, whatever the length (the <c>StreamCopiedToArray</c> event source event is only for copies on the large object heap).</summary>
    public event EventHandler<StreamConvertedToArrayEventArgs>? StreamConvertedToArray;

    /// <summary>A block or buffer a stream gave back was not kept by the manager's pool: too large to pool, or the pool keeps enough of its size.</summary>
    public event EventHandler<BufferDiscardedEventArgs>? BufferDiscarded;

    /// <summary>The manager's byte readings, raised when a stream is created and when it is disposed.</summary>
    public event EventHandler<UsageReportEventArgs>? UsageReport;

    /// <summary>Whether creating and disposing a stream take their slow paths: streams are tracked, or a handler that needs them is attached.</summary>
    private bool ObservesStreams => _streams is not null || StreamCreated is not null || StreamDisposed is not null || UsageReport is not null;

    /// <summary>A stream was created: tracking and the in-process events when observed, and the verbose event source event.</summary>
    internal void OnStreamCreated(PooledStream stream, long requestedSize, bool contiguous)
    {
        if (ObservesStreams)
        {
            OnStreamCreatedObserved(stream, requestedSize, contiguous);
        }

        if (NativePoolEventSource.Log.IsEnabled(EventLevel.Verbose, EventKeywords.All))
        {
            NativePoolEventSource.Log.StreamCreated(stream.Id, _buffers.Engine.Id, stream.Tag ?? "", Name);
        }
    }

    /// <summary>A stream was disposed for the first time: as <see cref="OnStreamCreated"/>.</summary>
    internal void OnStreamDisposed(PooledStream stream, long length)
    {
        if (ObservesStreams)
        {
            OnStreamDisposedObserved(stream, length);
        }

        if (NativePoolEventSource.Log.IsEnabled(EventLevel.Verbose, EventKeywords.All))
        {
            NativePoolEventSource.Log.StreamDisposed(stream.Id, length, _buffers.Engine.Id, stream.Tag ?? "", Name);
        }
    }

    /// <summary>A stream was disposed again: <see cref="StreamDoubleDisposed"/>, then in guarded mode the misuse policy, else the event source's event.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void OnDoubleDispose(PooledStream stream)
    {
        if (StreamDoubleDisposed is { } handler)
        {
            (StackTrace? allocationStack, StackTrace? disposeStack) = stream.DisposalStacks;
            StackTrace? again = _streams is null ? null : ItemGuard<PooledStream>.CallerStack(MemberFrames);
            handler.Invoke(this, new StreamDoubleDisposedEventArgs(stream.Id, stream.Tag, allocationStack, disposeStack, again));
        }

        if (_guarded && _streams is not null)
        {
            _streams.Report(PoolMisuseKind.DoubleReturn, stream, rentStack: null);
        }
        else if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.DoubleReturn(NativePoolEventSource.ItemId(stream), 0, _buffers.Engine.Id, Name);
        }
    }

    /// <summary>A stream was collected without being disposed: <see cref="StreamFinalized"/> and the warning event (a tracked stream is held until disposed, so only untracked ones get here).</summary>
    internal void OnStreamFinalized(PooledStream stream)
    {
        StreamFinalized?.Invoke(this, new StreamFinalizedEventArgs(stream.Id, stream.Tag));
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.StreamFinalized(stream.Id, _buffers.Engine.Id, stream.Tag ?? "", Name);
        }
    }

    /// <summary>Throws <see cref="System.IO.IOException"/>, after <see cref="StreamOverCapacity"/> and the event source's event, for a stream that would need more than <see cref="MaximumStreamCapacity"/>.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void ThrowOverCapacity(PooledStream stream, long capacity)
    {
        StreamOverCapacity?.Invoke(this, new StreamOverCapacityEventArgs(stream.Id, stream.Tag, capacity, _maximumStreamCapacity, _streams?.GetRentStack(stream)));
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.StreamOverCapacity(stream.Id, capacity, _maximumStreamCapacity, _buffers.Engine.Id, stream.Tag ?? "", Name);
        }

        ThrowHelper.ThrowIO(FormattableString.Invariant($"The stream would need {capacity} bytes, more than the manager's MaximumStreamCapacity of {_maximumStreamCapacity} bytes; stream {stream}."));
    }

    /// <summary><see cref="PooledStream.ToArray"/> was called: <see cref="StreamConvertedToArray"/>, then the call throws when <see cref="ThrowExceptionOnToArray"/> is set.</summary>
    internal void OnToArray(PooledStream stream, long length)
    {
        if (StreamConvertedToArray is { } handler)
        {
            StackTrace? stack = _streams is null ? null : ItemGuard<PooledStream>.CallerStack(MemberFrames);
            handler.Invoke(this, new StreamConvertedToArrayEventArgs(stream.Id, stream.Tag, length, stack));
        }

        if (_throwOnToArray)
        {
            ThrowHelper.ThrowNotSupported($"The stream's manager '{Name}' does not allow ToArray (ThrowExceptionOnToArray); stream {stream}.");
        }
    }

    /// <summary>A stream was copied into a new array: the event source's event when the array lands on the large object heap.</summary>
    internal void OnCopiedToArray(PooledStream stream, int length)
    {
        // The runtime's large object heap threshold: arrays of this many bytes or more are allocated there.
        const int LargeObjectBytes = 85_000;
        if (length >= LargeObjectBytes && NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.StreamCopiedToArray(stream.Id, length, _buffers.Engine.Id, stream.Tag ?? "", Name);
        }
    }

    /// <summary>The pool did not keep <paramref name="buffer"/>, which <paramref name="stream"/> gave back: <see cref="BufferDiscarded"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnDiscarded(PooledStream stream, byte[] buffer)
    {
        if (BufferDiscarded is { } handler)
        {
            StreamBufferKind kind = buffer.Length == _blockSize ? StreamBufferKind.Block : StreamBufferKind.Buffer;
            StreamBufferDiscardReason reason = buffer.Length > _maximumBufferSize ? StreamBufferDiscardReason.TooLarge : StreamBufferDiscardReason.EnoughFree;
            handler.Invoke(this, new BufferDiscardedEventArgs(stream.Id, stream.Tag, kind, reason));
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnStreamCreatedObserved(PooledStream stream, long requestedSize, bool contiguous)
    {
        _streams?.OnRent(stream, out _);
        if (StreamDisposed is not null)
        {
            stream.RecordCreationTime();
        }

        StreamCreated?.Invoke(this, new StreamCreatedEventArgs(stream.Id, stream.Tag, requestedSize, CapacityFor(requestedSize, contiguous)));
        RaiseUsageReport();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnStreamDisposedObserved(PooledStream stream, long length)
    {
        StackTrace? allocationStack = null;
        StackTrace? disposeStack = null;
        if (_streams is not null)
        {
            if (StreamDisposed is not null || StreamDoubleDisposed is not null)
            {
                // Kept on the stream for a later second Dispose: the guard forgets the creation stack now.
                allocationStack = _streams.GetRentStack(stream);
                disposeStack = ItemGuard<PooledStream>.CallerStack(DisposeFrames);
                stream.DisposalStacks = (allocationStack, disposeStack);
            }

            _streams.OnReturn(stream, cleared: false);
        }

        StreamDisposed?.Invoke(this, new StreamDisposedEventArgs(stream.Id, stream.Tag, length, stream.Lifetime, allocationStack, disposeStack));
        RaiseUsageReport();
    }

    private void RaiseUsageReport() =>
        UsageReport?.Invoke(this, new UsageReportEventArgs(BlockBytesInUse, BlockBytesFree, BufferBytesInUse, BufferBytesFree));

    /// <summary>The capacity a new stream asked for <paramref name="requestedSize"/> bytes gets: whole blocks, or the contiguous buffer's length.</summary>
    private long CapacityFor(long requestedSize, bool contiguous)
    {
        if (!contiguous)
        {
            return ((requestedSize + BlockMask) >> _blockShift) << _blockShift;
        }

        // A contiguous request is more than a block and at most Array.MaxLength; past the largest pooled buffer it is exact.
        return requestedSize > _maximumBufferSize ? requestedSize : SizeClasses.GetLength(SizeClasses.GetIndex((int)requestedSize));
    }
}
