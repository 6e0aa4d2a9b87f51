using System.Diagnostics.Tracing;
using System.Threading;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// What diagnostics cost while somebody listens: <c>StripedArrayPool&lt;byte&gt;.Shared</c> Rent(4096) + Return with an
/// <see cref="EventListener"/> enabled at Verbose on the <c>NativePool</c> event source, against
/// <c>ArrayPool&lt;byte&gt;.Shared</c> with the same listener enabled at Verbose on the runtime's
/// <c>System.Buffers.ArrayPoolEventSource</c>. Reported, not judged: both sides then raise an event per operation, and
/// the figure says what attaching a listener costs. (Nobody listening costs nothing on the inlined paths: the
/// observation state is folded into each pool's limits, so those paths read no flag at all.)
/// </summary>
public static class ListenerAttachedScenario
{
    public const int Length = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Listened, RentReturnScenarios.Shared<byte>>(
            "byte[4096] with a Verbose listener vs ArrayPool.Shared with one",
            double.PositiveInfinity,
            () => new Listened(new VerboseListener()),
            () => new(Length));

    /// <summary>Ours, with the listener that both sides share alive for the scenario (created first, disposed last).</summary>
    private readonly struct Listened(VerboseListener listener) : IOperation, IDisposable
    {
        public void Run(int count) => new RentReturnScenarios.Striped<byte>(Length).Run(count);

        public void Dispose() => listener.Dispose();
    }

    /// <summary>Enables both pools' event sources at Verbose and counts what arrives (so the events are really written).</summary>
    private sealed class VerboseListener : EventListener
    {
        private long _events;

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name is "NativePool" or "System.Buffers.ArrayPoolEventSource")
            {
                EnableEvents(eventSource, EventLevel.Verbose);
            }
        }

        // Interlocked: events arrive on whichever thread raised them.
        protected override void OnEventWritten(EventWrittenEventArgs eventData) => Interlocked.Increment(ref _events);
    }
}
