using System.Collections.Concurrent;
using System.Diagnostics.Tracing;

namespace NativePool.Tests.Engine;

/// <summary>
/// A thread's scope ledger never ends a live scope to make room: scopes abandoned by other code, or a correct recursion
/// of any depth, leave every live scope valid. Abandoned scopes are reported as a likely leak once per doubling past
/// <see cref="ScopeLedger.LeakReportThreshold"/>.
/// </summary>
/// <remarks>
/// Alone in the process: the leak test listens to the process-wide event source itself.
/// </remarks>
[Collection(RunsAlone.Name)]
public sealed class ScopeLedgerBoundTests
{
    private const int AbandonedScopes = 10_000_000;

    [Fact]
    public void TenMillionAbandonedScopesLeaveEveryOneOfThemLiveAndANewScopeWorks()
    {
        var ledger = new ScopeLedger();
        long first = ledger.Begin();
        long last = first;
        for (int i = 1; i < AbandonedScopes; i++)
        {
            last = ledger.Begin();
        }

        Assert.Equal(AbandonedScopes, ledger.LiveCount);
        Assert.True(ledger.IsLive(first));
        Assert.True(ledger.IsLive(last));

        // A small constant per abandoned scope (at most 4 slots of 8 bytes: half full after the last doubling, so a new
        // number skips few slots).
        Assert.True(ledger.SlotCount <= 4 * AbandonedScopes, $"{ledger.SlotCount} slots for {AbandonedScopes} live scopes");
        long number = ledger.Begin();
        Assert.True(ledger.IsLive(number));
        Assert.True(ledger.TryEnd(number));
        Assert.False(ledger.IsLive(number));
        Assert.True(ledger.TryEnd(first));
    }

    [Fact]
    public void ManyLiveScopesAreReportedOncePerDoublingAndNoneIsEnded()
    {
        using var listener = new ScopeLeakListener(Environment.CurrentManagedThreadId);
        var ledger = new ScopeLedger();
        long[] numbers = [.. Enumerable.Range(0, 4 * ScopeLedger.LeakReportThreshold).Select(_ => ledger.Begin())];

        Assert.All(numbers, number => Assert.True(ledger.IsLive(number)));
        Assert.NotEmpty(listener.Leaks);
        Assert.Equal(ledger.Reports, listener.Leaks.Count);
        Assert.True(ledger.Reports <= 3, $"{ledger.Reports} reports for {numbers.Length} live scopes");
        Assert.Contains($"holds ", listener.Leaks.First(), StringComparison.Ordinal);
        Assert.All(numbers, number => Assert.True(ledger.TryEnd(number)));
    }

    [Fact]
    public void ScopesPilingUpOnAFreshThreadOfAGuardedPoolAreFirstReportedAtThe514th()
    {
        // The thread's first scope begins before it has the pool's cache and goes into the thread's own ledger; from the
        // second on, scopes go into the ledger of the pool's cache, whose 513th (more than 512 live) is reported.
        int? firstReportAt = null;
        TestThreads.RunOnNewThread(() =>
        {
            using var listener = new ScopeLeakListener(Environment.CurrentManagedThreadId);
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Guarded = true });
            for (int scope = 1; scope <= 600 && firstReportAt is null; scope++)
            {
#pragma warning disable NP0004 // Abandoning scopes undisposed is what this test does.
                _ = pool.RentScoped(16);
#pragma warning restore NP0004
                if (!listener.Leaks.IsEmpty)
                {
                    firstReportAt = scope;
                }
            }
        });

        Assert.Equal(514, firstReportAt);
    }

    /// <summary>Collects the texts of the scope-ledger leak events written on one thread.</summary>
    private sealed class ScopeLeakListener : EventListener
    {
        private readonly string? _thread;

        public ScopeLeakListener(int threadId) => _thread = $"Thread {threadId} ";

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
