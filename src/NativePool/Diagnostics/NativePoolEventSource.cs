using System;
using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The <c>NativePool</c> event source (payloads: docs/diagnostics.md). Call sites check <see cref="EventSource.IsEnabled()"/>
/// before gathering arguments, so nobody listening costs one branch; trimming is reported per pass, as a pass may free thousands.
/// </summary>
[EventSource(Name = "NativePool")]
internal sealed class NativePoolEventSource : EventSource
{
    /// <summary>The one instance.</summary>
    public static readonly NativePoolEventSource Log = new();

    private const int BufferRentedId = 1;
    private const int BufferAllocatedId = 2;
    private const int BufferReturnedId = 3;
    private const int BufferTrimmedId = 4;
    private const int BufferTrimPollId = 5;
    private const int BufferDroppedId = 6;
    private const int DoubleReturnId = 7;
    private const int LeakId = 8;
    private const int MisuseId = 9;
    private const int StreamCopiedToArrayId = 10;
    private const int StreamCreatedId = 11;
    private const int StreamDisposedId = 12;
    private const int StreamFinalizedId = 13;
    private const int StreamOverCapacityId = 14;
    private const int SettingRejectedId = 15;

    private NativePoolEventSource()
        : base(EventSourceSettings.EtwSelfDescribingEventFormat)
    {
    }

    /// <summary>Keeps <see cref="PoolObservation"/> in step with listeners attaching and detaching.</summary>
    /// <param name="command">The command a listener sent.</param>
    protected override void OnEventCommand(EventCommandEventArgs command)
    {
        base.OnEventCommand(command);
        PoolObservation.SetListening(IsEnabled());
    }

    /// <summary>An item was handed to a caller (from the pool or freshly allocated).</summary>
    [Event(BufferRentedId, Level = EventLevel.Verbose)]
    public void BufferRented(int bufferId, int bufferSize, int poolId, int sizeClass, string poolName) =>
        Write(BufferRentedId, [], [bufferId, bufferSize, poolId, sizeClass], poolName);

    /// <summary>The pool created an item because it had none (or the request was oversize).</summary>
    [Event(BufferAllocatedId, Level = EventLevel.Informational)]
    public void BufferAllocated(int bufferId, int bufferSize, int poolId, int sizeClass, BufferAllocatedReason reason, string poolName) =>
        Write(BufferAllocatedId, [], [bufferId, bufferSize, poolId, sizeClass, (int)reason], poolName);

    /// <summary>A caller gave an item back (whether the pool keeps it or not).</summary>
    [Event(BufferReturnedId, Level = EventLevel.Verbose)]
    public void BufferReturned(int bufferId, int bufferSize, int poolId, string poolName) =>
        Write(BufferReturnedId, [], [bufferId, bufferSize, poolId], poolName);

    /// <summary>A trim pass (or a drain) released <paramref name="count"/> pooled items.</summary>
    [Event(BufferTrimmedId, Level = EventLevel.Informational)]
    public void BufferTrimmed(int poolId, int count, string poolName) =>
        Write(BufferTrimmedId, [], [poolId, count], poolName);

    /// <summary>A trim pass started; <paramref name="pressure"/> is the memory pressure it saw (0 low, 1 medium, 2 high).</summary>
    [Event(BufferTrimPollId, Level = EventLevel.Informational)]
    public void BufferTrimPoll(int poolId, int pressure, string poolName) =>
        Write(BufferTrimPollId, [], [poolId, pressure], poolName);

    /// <summary>An item was not kept: returned to a full pool, oversize, rejected, or abandoned by a collected stream.</summary>
    [Event(BufferDroppedId, Level = EventLevel.Informational)]
    public void BufferDropped(int bufferId, int bufferSize, int poolId, int sizeClass, BufferDroppedReason reason, string poolName) =>
        Write(BufferDroppedId, [], [bufferId, bufferSize, poolId, sizeClass, (int)reason], poolName);

    /// <summary>An item that was already in the pool was returned again.</summary>
    [Event(DoubleReturnId, Level = EventLevel.Warning)]
    public void DoubleReturn(int bufferId, int bufferSize, int poolId, string poolName) =>
        Write(DoubleReturnId, [], [bufferId, bufferSize, poolId], poolName);

    /// <summary>A leak-tracking pool reported an item rented and never returned, with the stack that rented it.</summary>
    [Event(LeakId, Level = EventLevel.Warning)]
    public void Leak(int bufferId, int bufferSize, int poolId, string rentStack, string poolName) =>
        Write(LeakId, [], [bufferId, bufferSize, poolId], rentStack, poolName);

    /// <summary>A guarded pool saw misuse other than a double return: <paramref name="kind"/> 1 is a foreign return, 2 a write after return.</summary>
    [Event(MisuseId, Level = EventLevel.Warning)]
    public void Misuse(int bufferId, int poolId, int kind, string poolName) =>
        Write(MisuseId, [], [bufferId, poolId, kind], poolName);

    /// <summary>A pooled stream was copied into a new array of <paramref name="length"/> bytes, large enough for the large object heap: the allocation pooling exists to avoid.</summary>
    [Event(StreamCopiedToArrayId, Level = EventLevel.Warning)]
    public void StreamCopiedToArray(long streamId, long length, int poolId, string tag, string poolName) =>
        Write(StreamCopiedToArrayId, [streamId, length], [poolId], tag, poolName);

    /// <summary>A pooled stream was created (verbose: one per stream).</summary>
    [Event(StreamCreatedId, Level = EventLevel.Verbose)]
    public void StreamCreated(long streamId, int poolId, string tag, string poolName) =>
        Write(StreamCreatedId, [streamId], [poolId], tag, poolName);

    /// <summary>A pooled stream of <paramref name="length"/> bytes was disposed for the first time (verbose: one per stream).</summary>
    [Event(StreamDisposedId, Level = EventLevel.Verbose)]
    public void StreamDisposed(long streamId, long length, int poolId, string tag, string poolName) =>
        Write(StreamDisposedId, [streamId, length], [poolId], tag, poolName);

    /// <summary>A pooled stream was collected without being disposed: its storage is counted as dropped instead of going back to the pool.</summary>
    [Event(StreamFinalizedId, Level = EventLevel.Warning)]
    public void StreamFinalized(long streamId, int poolId, string tag, string poolName) =>
        Write(StreamFinalizedId, [streamId], [poolId], tag, poolName);

    /// <summary>A pooled stream asked for <paramref name="requestedCapacity"/> bytes, more than its manager's <paramref name="maximumCapacity"/>; the request threw.</summary>
    [Event(StreamOverCapacityId, Level = EventLevel.Error)]
    public void StreamOverCapacity(long streamId, long requestedCapacity, long maximumCapacity, int poolId, string tag, string poolName) =>
        Write(StreamOverCapacityId, [streamId, requestedCapacity, maximumCapacity], [poolId], tag, poolName);

    /// <summary>A process-wide setting holds a value NativePool cannot read (<paramref name="message"/> names it, the value and what it accepts); written each time a pool that depends on it refuses to be created.</summary>
    [Event(SettingRejectedId, Level = EventLevel.Error)]
    public void SettingRejected(string message) =>
        WriteEvent(SettingRejectedId, message);

    /// <summary>An item's id in events: its identity hash code.</summary>
    [NonEvent]
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ItemId(object item) => RuntimeHelpers.GetHashCode(item);

    /// <summary>A byte size as an event argument (saturated at <see cref="int.MaxValue"/>).</summary>
    [NonEvent]
    public static int Size(long bytes) => (int)Math.Min(bytes, int.MaxValue);

    /// <summary>Writes <paramref name="longs"/>, <paramref name="ints"/>, <paramref name="text"/> and <paramref name="lastText"/> (when not null), in the event method's parameter order, without allocating.</summary>
    [NonEvent]
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    private unsafe void Write(int eventId, ReadOnlySpan<long> longs, ReadOnlySpan<int> ints, string text, string? lastText = null)
    {
        int count = longs.Length + ints.Length + (lastText is null ? 1 : 2);
        EventData* data = stackalloc EventData[count];
        fixed (long* longValues = longs)
        fixed (int* intValues = ints)
        fixed (char* chars = text)
        fixed (char* lastChars = lastText)
        {
            EventData* next = SetValues(SetValues(data, longValues, longs.Length), intValues, ints.Length);
            SetString(next, chars, text);
            if (lastText is not null)
            {
                SetString(next + 1, lastChars, lastText);
            }

            WriteEventCore(eventId, count, data);
        }
    }

    [NonEvent]
    private static unsafe EventData* SetValues<T>(EventData* data, T* values, int count)
        where T : unmanaged
    {
        for (int i = 0; i < count; i++)
        {
            data[i].DataPointer = (IntPtr)(values + i);
            data[i].Size = sizeof(T);
        }

        return data + count;
    }

    [NonEvent]
    private static unsafe void SetString(EventData* data, char* chars, string value)
    {
        data->DataPointer = (IntPtr)chars;
        data->Size = (value.Length + 1) * sizeof(char);
    }
}
