using System.Collections.Concurrent;
using System.Diagnostics.Tracing;

namespace NativePool.Tests;

/// <summary>
/// Records the <c>NativePool</c> event source's events of one pool, picked by the pool's name or by its id (pools made
/// alike share a name; ids are unique among live pools), at every level.
/// </summary>
internal sealed class PoolEventListener : EventListener
{
    private readonly string? _poolName;
    private readonly int? _poolId;
    private readonly ConcurrentQueue<EventWrittenEventArgs> _events = new();

    /// <summary>Records the events whose <c>poolName</c> payload is <paramref name="poolName"/>.</summary>
    public PoolEventListener(string poolName) => _poolName = poolName;

    /// <summary>Records the events whose <c>poolId</c> payload is <paramref name="poolId"/>.</summary>
    public PoolEventListener(int poolId) => _poolId = poolId;

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
        // The base constructor may deliver events before this object's fields are set: then neither filter is set yet.
        if (eventData.PayloadNames is not { } names)
        {
            return;
        }

        bool matches = _poolName is not null
            ? Matches(eventData, names, "poolName", _poolName)
            : _poolId is int id && Matches(eventData, names, "poolId", id);
        if (matches)
        {
            _events.Enqueue(eventData);
        }
    }

    private static bool Matches(EventWrittenEventArgs eventData, System.Collections.ObjectModel.ReadOnlyCollection<string> names, string payloadName, object expected) =>
        names.IndexOf(payloadName) is int index and >= 0 && Equals(eventData.Payload![index], expected);
}
