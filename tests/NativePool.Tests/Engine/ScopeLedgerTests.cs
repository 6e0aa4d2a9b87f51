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
    public void NestedScopesOfThePoolReturnEachArrayOnce()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        var outer = pool.RentScoped(100);
        var inner = pool.RentScoped(100);
        var staleOuter = outer;
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
