namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The statistics while trimming runs continuously beside a thread that rents and returns with pauses: the trimmer must
/// never race the owner of a thread slot.
/// </summary>
/// <remarks>
/// The owner's rent reads its thread slot and clears it with plain stores, so the fast path has no interlocked
/// instruction. A trimmer that took items out of another live thread's slot would race that: when its exchange lands
/// between the owner's read and its clear, both hold the item, and the item is counted as trimmed and as outstanding.
/// The engine's periodic trim therefore never takes from other threads' slots; it asks their owners to flush their
/// magazines on their next slow operation. Here the trim clock moves an hour per reading, so every pass is "long
/// after" the previous one; with the old idle-slot rule this loop showed a few collisions a second.
/// </remarks>
public class TrimRaceTests
{
    [Fact]
    public void StatisticsStayConservedWhenTrimmingRacesAThreadThatWakesUp()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = false,
            TrimAge = TimeSpan.Zero,
            TimeProvider = new HourPerReadingClock(),
        });
        long deadline = Environment.TickCount64 + 2_000;
        var owner = new Thread(() =>
        {
            var random = new Random(1);
            while (Environment.TickCount64 < deadline)
            {
                byte[] array = pool.Rent(16);
                pool.Return(array);

                // Pauses of varying length, so trim passes find the thread idle and it wakes up during some of them.
                Thread.SpinWait(random.Next(2_000));
            }
        });
        owner.Start();
        long released = 0;
        while (owner.IsAlive)
        {
            released += pool.Trim();
        }

        owner.Join();
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, $"{statistics}; Trim released {released}.");
    }

}
