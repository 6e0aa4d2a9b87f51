using System.Collections.Concurrent;
using System.Diagnostics.Tracing;

namespace NativePool.Tests.Engine;

/// <summary>
/// A thread's scope ledger tracks at most <see cref="ScopeLedger.MaximumLiveScopes"/> live scopes: abandoned scopes
/// (never disposed) do not accumulate, and the one a new scope evicts from a full ledger is reported as a leak.
/// </summary>
/// <remarks>
/// Alone in the process: ten million evictions would each format a leak event for any listener another test has
/// attached, and the eviction test listens to the process-wide event source itself.
/// </remarks>
[Collection(RunsAlone.Name)]
public sealed class ScopeLedgerBoundTests
{
    private const int AbandonedScopes = 10_000_000;

    [Fact]
    public void TenMillionAbandonedScopesKeepTheLedgerAtItsBound()
    {
        var ledger = new ScopeLedger();

        for (int i = 0; i < AbandonedScopes; i++)
        {
            ledger.Begin();
        }

        // 256 slots of 8 bytes, 2 KiB, however many were abandoned; every scope past the bound evicted one.
        Assert.Equal(ScopeLedger.MaximumLiveScopes, ledger.SlotCount);
        Assert.Equal(AbandonedScopes - ScopeLedger.MaximumLiveScopes, ledger.Evictions);

        // Still a working ledger: a new scope is live until it ends.
        long number = ledger.Begin();
        Assert.True(ledger.IsLive(number));
        Assert.True(ledger.TryEnd(number));
        Assert.False(ledger.IsLive(number));
    }

    [Fact]
    public void AScopeEvictedFromAFullLedgerIsReportedAsALeakAndNeverEndsAgain()
    {
        using var listener = new ScopeLeakListener(Environment.CurrentManagedThreadId);
        var ledger = new ScopeLedger();
        long oldest = ledger.Begin();
        for (int i = 1; i < ScopeLedger.MaximumLiveScopes; i++)
        {
            ledger.Begin();
        }

        Assert.Empty(listener.Leaks);
        long newest = ledger.Begin();

        string leak = Assert.Single(listener.Leaks);
        Assert.Contains($"Scope {oldest} of thread {Environment.CurrentManagedThreadId} ", leak, StringComparison.Ordinal);
        Assert.False(ledger.IsLive(oldest));
        Assert.False(ledger.TryEnd(oldest));
        Assert.True(ledger.IsLive(newest));
        Assert.True(ledger.TryEnd(newest));
    }

    /// <summary>Collects the texts of the scope-ledger leak events written on one thread.</summary>
    private sealed class ScopeLeakListener : EventListener
    {
        private readonly string? _thread;

        public ScopeLeakListener(int threadId) => _thread = $" of thread {threadId} ";

        public ConcurrentQueue<string> Leaks { get; } = new();

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            // Called for the sources that exist already and for each one created later.
            if (eventSource.Name == "NativePool")
            {
                EnableEvents(eventSource, EventLevel.Warning);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            // The base constructor may deliver events before this object's fields are set.
            if (_thread is null || eventData.EventName != "Leak" || eventData.PayloadNames is not { } names)
            {
                return;
            }

            var poolName = (string?)eventData.Payload![names.IndexOf("poolName")];
            var text = (string?)eventData.Payload[names.IndexOf("rentStack")];
            if (poolName == ScopeLedger.LeakPoolName && text is not null && text.Contains(_thread, StringComparison.Ordinal))
            {
                Leaks.Enqueue(text);
            }
        }
    }
}
