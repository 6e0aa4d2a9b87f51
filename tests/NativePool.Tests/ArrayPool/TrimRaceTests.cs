namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The statistics while trimming races the owner of a thread slot: a reproducer of a known engine race, skipped until
/// the engine settles it.
/// </summary>
/// <remarks>
/// The owner's rent reads its thread slot and then clears it with plain stores (no interlocked instruction on the fast
/// path); a trim pass takes the item out of the same slot with <c>Interlocked.Exchange</c>. When the exchange lands
/// between the owner's read and its clear, both have the item: the renter uses it and the trimmer counts it trimmed, so
/// <c>Allocated = Pooled + Outstanding + Dropped + Trimmed</c> is off by one for every such collision. No array is
/// handed to two renters (the trimmer only drops its reference), which the stress tests check with trimming running.
/// <c>Clear()</c> (and a high-memory-pressure trim) takes every slot whatever the thread is doing, so a loop of
/// <c>Clear()</c> against one renting thread shows it within a second (hundreds of collisions per second here).
/// </remarks>
public class TrimRaceTests
{
    private const string KnownRace =
        "Known engine race, reported: a trim that takes an item out of an active thread's slot while the owner rents it " +
        "counts the item both trimmed and rented. Settling it needs a change to the rent fast path (the lead's call).";

    [Fact(Skip = KnownRace)]
    public void StatisticsStayConservedWhenClearRacesAnActiveThread()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        long deadline = Environment.TickCount64 + 2_000;
        var owner = new Thread(() =>
        {
            while (Environment.TickCount64 < deadline)
            {
                byte[] array = pool.Rent(16);
                pool.Return(array);
            }
        });
        owner.Start();
        long released = 0;
        while (owner.IsAlive)
        {
            released += pool.Clear();
        }

        owner.Join();
        PoolStatistics statistics = pool.GetStatistics();
        Assert.True(statistics.IsConserved, $"{statistics}; Clear released {released}.");
    }
}
