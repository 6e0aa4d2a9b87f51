using System;
using System.Diagnostics.CodeAnalysis;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The <c>NativePool</c> event source: what pools hand out, create, take back, release and let go of, and the misuse
/// guarded pools see. Every call site checks <see cref="EventSource.IsEnabled()"/> once before gathering arguments,
/// so a process nobody listens to pays one well-predicted branch per site.
/// </summary>
/// <remarks>
/// Events name their pool by id (unique among live pools, reused after a pool dies) and by name. Item ids are the
/// item's identity hash code. Sizes are in bytes (0 for objects). Trimming is reported per pass (how many items the
/// pass released), not per item: a pass may release thousands of items and runs on the trimmer's thread.
/// </remarks>
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
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferRentedId, Level = EventLevel.Verbose)]
    public unsafe void BufferRented(int bufferId, int bufferSize, int poolId, int sizeClass, string poolName)
    {
        EventData* data = stackalloc EventData[5];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        SetInt32(ref data[3], &sizeClass);
        fixed (char* name = poolName)
        {
            SetString(ref data[4], name, poolName);
            WriteEventCore(BufferRentedId, 5, data);
        }
    }

    /// <summary>The pool created an item because it had none (or the request was oversize).</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferAllocatedId, Level = EventLevel.Informational)]
    public unsafe void BufferAllocated(int bufferId, int bufferSize, int poolId, int sizeClass, BufferAllocatedReason reason, string poolName)
    {
        int reasonValue = (int)reason;
        EventData* data = stackalloc EventData[6];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        SetInt32(ref data[3], &sizeClass);
        SetInt32(ref data[4], &reasonValue);
        fixed (char* name = poolName)
        {
            SetString(ref data[5], name, poolName);
            WriteEventCore(BufferAllocatedId, 6, data);
        }
    }

    /// <summary>A caller gave an item back (whether the pool keeps it or not).</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferReturnedId, Level = EventLevel.Verbose)]
    public unsafe void BufferReturned(int bufferId, int bufferSize, int poolId, string poolName)
    {
        EventData* data = stackalloc EventData[4];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        fixed (char* name = poolName)
        {
            SetString(ref data[3], name, poolName);
            WriteEventCore(BufferReturnedId, 4, data);
        }
    }

    /// <summary>A trim pass (or a drain) released <paramref name="count"/> pooled items.</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferTrimmedId, Level = EventLevel.Informational)]
    public unsafe void BufferTrimmed(int poolId, int count, string poolName)
    {
        EventData* data = stackalloc EventData[3];
        SetInt32(ref data[0], &poolId);
        SetInt32(ref data[1], &count);
        fixed (char* name = poolName)
        {
            SetString(ref data[2], name, poolName);
            WriteEventCore(BufferTrimmedId, 3, data);
        }
    }

    /// <summary>A trim pass started; <paramref name="pressure"/> is the memory pressure it saw (0 low, 1 medium, 2 high).</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferTrimPollId, Level = EventLevel.Informational)]
    public unsafe void BufferTrimPoll(int poolId, int pressure, string poolName)
    {
        EventData* data = stackalloc EventData[3];
        SetInt32(ref data[0], &poolId);
        SetInt32(ref data[1], &pressure);
        fixed (char* name = poolName)
        {
            SetString(ref data[2], name, poolName);
            WriteEventCore(BufferTrimPollId, 3, data);
        }
    }

    /// <summary>A returned item was not kept.</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(BufferDroppedId, Level = EventLevel.Informational)]
    public unsafe void BufferDropped(int bufferId, int bufferSize, int poolId, int sizeClass, BufferDroppedReason reason, string poolName)
    {
        int reasonValue = (int)reason;
        EventData* data = stackalloc EventData[6];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        SetInt32(ref data[3], &sizeClass);
        SetInt32(ref data[4], &reasonValue);
        fixed (char* name = poolName)
        {
            SetString(ref data[5], name, poolName);
            WriteEventCore(BufferDroppedId, 6, data);
        }
    }

    /// <summary>An item that was already in the pool was returned again.</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(DoubleReturnId, Level = EventLevel.Warning)]
    public unsafe void DoubleReturn(int bufferId, int bufferSize, int poolId, string poolName)
    {
        EventData* data = stackalloc EventData[4];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        fixed (char* name = poolName)
        {
            SetString(ref data[3], name, poolName);
            WriteEventCore(DoubleReturnId, 4, data);
        }
    }

    /// <summary>A leak-tracking pool reported an item rented and never returned, with the stack that rented it.</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(LeakId, Level = EventLevel.Warning)]
    public unsafe void Leak(int bufferId, int bufferSize, int poolId, string rentStack, string poolName)
    {
        EventData* data = stackalloc EventData[5];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &bufferSize);
        SetInt32(ref data[2], &poolId);
        fixed (char* stack = rentStack)
        fixed (char* name = poolName)
        {
            SetString(ref data[3], stack, rentStack);
            SetString(ref data[4], name, poolName);
            WriteEventCore(LeakId, 5, data);
        }
    }

    /// <summary>A guarded pool saw misuse other than a double return: <paramref name="kind"/> 1 is a foreign return, 2 a write after return.</summary>
    [UnconditionalSuppressMessage("ReflectionAnalysis", "IL2026", Justification = "The payload is integers and strings only: nothing to serialize by reflection.")]
    [Event(MisuseId, Level = EventLevel.Warning)]
    public unsafe void Misuse(int bufferId, int poolId, int kind, string poolName)
    {
        EventData* data = stackalloc EventData[4];
        SetInt32(ref data[0], &bufferId);
        SetInt32(ref data[1], &poolId);
        SetInt32(ref data[2], &kind);
        fixed (char* name = poolName)
        {
            SetString(ref data[3], name, poolName);
            WriteEventCore(MisuseId, 4, data);
        }
    }

    /// <summary>An item's id in events: its identity hash code.</summary>
    [NonEvent]
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int ItemId(object item) => RuntimeHelpers.GetHashCode(item);

    /// <summary>A byte size as an event argument (saturated at <see cref="int.MaxValue"/>).</summary>
    [NonEvent]
    public static int Size(long bytes) => (int)Math.Min(bytes, int.MaxValue);

    [NonEvent]
    private static unsafe void SetInt32(ref EventData data, int* value)
    {
        data.DataPointer = (IntPtr)value;
        data.Size = sizeof(int);
    }

    [NonEvent]
    private static unsafe void SetString(ref EventData data, char* chars, string value)
    {
        data.DataPointer = (IntPtr)chars;
        data.Size = (value.Length + 1) * sizeof(char);
    }
}
