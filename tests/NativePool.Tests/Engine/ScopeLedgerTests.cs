namespace NativePool.Tests.Engine;

/// <summary>The per-thread ledger that lets copies of a ref-struct scope end it exactly once, in any order.</summary>
public sealed class ScopeLedgerTests
{
    [Fact]
    public void ScopesEndedInAnyOrderEndOnceEach()
    {
        var ledger = new ScopeLedger();
        long[] numbers = Enumerable.Range(0, 20).Select(_ => ledger.Begin()).ToArray();
        Assert.Equal(numbers.Length, numbers.Distinct().Count());

        // Out of order, and past the ledger's first capacity.
        int[] order = [3, 19, 0, 10, 11, 18, 1, 2, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17];
        foreach (int index in order)
        {
            Assert.True(ledger.IsLive(numbers[index]));
            Assert.True(ledger.TryEnd(numbers[index]));
            Assert.False(ledger.IsLive(numbers[index]));
            Assert.False(ledger.TryEnd(numbers[index]));
        }
    }

    [Fact]
    public void ANumberIsNeverHandedOutTwice()
    {
        var ledger = new ScopeLedger();
        long first = ledger.Begin();
        Assert.True(ledger.TryEnd(first));

        long second = ledger.Begin();

        Assert.NotEqual(first, second);
        Assert.False(ledger.TryEnd(first));
        Assert.True(ledger.IsLive(second));
    }

    [Fact]
    public void ALiveScopeOutlastsAnyNumberOfLaterScopesThatEnd()
    {
        var ledger = new ScopeLedger();
        long outer = ledger.Begin();

        // Scopes that end free their slots: the ledger stays at its first size.
        for (int i = 0; i < 100 * ScopeLedger.LeakReportThreshold; i++)
        {
            long inner = ledger.Begin();
            Assert.True(ledger.TryEnd(inner));
        }

        Assert.True(ledger.IsLive(outer));
        Assert.Equal(8, ledger.SlotCount);
        Assert.True(ledger.TryEnd(outer));
    }

    [Fact]
    public void ManyMoreLiveScopesThanTheLeakThresholdAreAllTracked()
    {
        var ledger = new ScopeLedger();
        long[] numbers = Enumerable.Range(0, 3 * ScopeLedger.LeakReportThreshold).Select(_ => ledger.Begin()).ToArray();

        Assert.All(numbers, number => Assert.True(ledger.IsLive(number)));
        Assert.All(numbers.Reverse(), number => Assert.True(ledger.TryEnd(number)));
        Assert.All(numbers, number => Assert.False(ledger.IsLive(number)));
    }

    [Fact]
    public void ScopesThatPileUpAreFirstReportedWhenThe513thBeginsThenAtEachDoubling()
    {
        var ledger = new ScopeLedger();
        for (int i = 0; i < 512; i++)
        {
            ledger.Begin();
        }

        Assert.Equal(0, ledger.Reports);
        ledger.Begin();
        Assert.Equal(1, ledger.Reports);
        for (int i = 513; i < 1024; i++)
        {
            ledger.Begin();
        }

        Assert.Equal(1, ledger.Reports);
        ledger.Begin();
        Assert.Equal(2, ledger.Reports);
    }

    [Fact]
    public void AThreadWith256LiveScopesIsNeverReportedAndOneWith257CanBe()
    {
        var quiet = new ScopeLedger();
        var reported = new ScopeLedger();
        for (int i = 0; i < ScopeLedger.LeakReportThreshold; i++)
        {
            quiet.Begin();
            reported.Begin();
        }

        reported.Begin();

        // Short-lived scopes on top walk the numbers round the table until one lands on a live scope's slot.
        for (int i = 0; i < 10_000; i++)
        {
            Assert.True(quiet.TryEnd(quiet.Begin()));
            Assert.True(reported.TryEnd(reported.Begin()));
        }

        Assert.Equal(256, ScopeLedger.LeakReportThreshold);
        Assert.Equal(0, quiet.Reports);
        Assert.Equal(1, reported.Reports);
    }

    [Fact]
    public void IsLiveAndTryEndReadOnlyTheSlotTheirNumberNames()
    {
        var ledger = new ScopeLedger();
        long[] numbers = Enumerable.Range(0, 100).Select(_ => ledger.Begin()).ToArray();
        long ended = numbers[37];
        long live = numbers[63];
        Assert.True(ledger.TryEnd(ended));

        // Every other slot now claims to hold the ended scope, and none holds the live one: a scan over the slots
        // would find the ended scope and miss the live one; a look at the one slot each number names does neither.
        long[] slots = ledger.SlotsForTest;
        for (int i = 0; i < slots.Length; i++)
        {
            if (i != ledger.SlotIndexForTest(ended) && i != ledger.SlotIndexForTest(live))
            {
                slots[i] = ended;
            }
        }

        Assert.False(ledger.IsLive(ended));
        Assert.False(ledger.TryEnd(ended));
        Assert.True(ledger.IsLive(live));
        Assert.True(ledger.TryEnd(live));
    }

    [Fact]
    public void NestedScopesOfThePoolReturnEachArrayOnce()
    {
        // Guarded: only a guarded pool's scopes keep a ledger (copies, as here, are compile-time errors, NP0012).
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false, Guarded = true });
        var outer = pool.RentScoped(100);
        var inner = pool.RentScoped(100);
#pragma warning disable NP0012
        var staleOuter = outer;
#pragma warning restore NP0012
        Assert.NotSame(outer.Array, inner.Array);

        outer.Dispose();
        Assert.False(staleOuter.IsActive);
        Assert.True(inner.IsActive);
        staleOuter.Dispose();
        inner.Dispose();

        Assert.Equal(2, pool.GetStatistics().Pooled);
        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }
}
