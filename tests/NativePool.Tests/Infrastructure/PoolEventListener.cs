using System.Collections.Concurrent;
using System.Diagnostics.Tracing;

namespace NativePool.Tests;

/// <summary>Collects the <c>NativePool</c> events of one pool (by name) at Verbose, in-process.</summary>
internal sealed class PoolEventListener : EventListener
{
    private readonly string _poolName;
    private readonly ConcurrentQueue<EventWrittenEventArgs> _events = new();

    public PoolEventListener(string poolName) => _poolName = poolName;

    public int Count(string eventName) => _events.Count(e => e.EventName == eventName);

    public List<object?> Payloads(string eventName, string payloadName) =>
        [.. _events.Where(e => e.EventName == eventName).Select(e => e.Payload![e.PayloadNames!.IndexOf(payloadName)])];

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        // Called for the sources that exist already and for each one created later (the pool's is created lazily).
        if (eventSource.Name == "NativePool")
        {
            EnableEvents(eventSource, EventLevel.Verbose);
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        // The base constructor may deliver events before this object's fields are set.
        if (_poolName is not null && eventData.PayloadNames is { } names && names.IndexOf("poolName") is int index and >= 0
            && Equals(eventData.Payload![index], _poolName))
        {
            _events.Enqueue(eventData);
        }
    }
}
