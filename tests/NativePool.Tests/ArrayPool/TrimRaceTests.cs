namespace NativePool.Tests.ArrayPool;

/// <summary>
/// Statistics read while trim passes run without pause, under high memory pressure: every read made while callers are
/// quiet must add up exactly, with no item counted as held by a caller while a pass has it in flight.
/// </summary>
/// <remarks>
/// A pass removes items from the stripes and from threads' tiers; each removal is a move the statistics
/// reader waits for and retries around. The last test injects a broken trimmer (one that forgets to count what it
/// takes) and shows the same check catches it, so the checks here can fail.
/// </remarks>
public class TrimRaceTests
{
    private const int Rounds = 5_000;

    private static readonly int[] s_lengths = [16, 100, 4096, 16, 1000, 4096, 16, 64, 100, 16, 4096, 2000];

    [Fact]
    public void StatisticsReadBetweenRefillsAreExactWhileHighPressureTrimPassesRun()
    {
        StripedArrayPool<byte> pool = CreatePool();
        PoolStatistics? phantom = FindInexactReading(pool, () => pool.Trim());
        Assert.Null(phantom);
        Assert.True(pool.GetStatistics().Trimmed > 0, "No pass removed anything: the test did not race the trimmer.");
    }

    [Fact]
    public void AThreadThatWakesDuringHighPressurePassesKeepsItsStatisticsExact()
    {
        StripedArrayPool<byte> pool = CreatePool();
        int stop = 0;
        long released = 0;
        TestThreads.Run(2, index =>
        {
            if (index == 0)
            {
                // Volatile: the owner thread raises the flag when its loop ends.
                while (Volatile.Read(ref stop) == 0)
                {
                    released += pool.Trim();
                }

                return;
            }

            var random = new Random(1);
            for (int i = 0; i < Rounds; i++)
            {
                byte[] array = pool.Rent(s_lengths[i % s_lengths.Length]);
                pool.Return(array);

                // Pauses of varying length, so passes find the thread idle and it wakes up during some of them.
                Thread.SpinWait(random.Next(500));
            }

            // Volatile: ends the trimmer's loop.
            Volatile.Write(ref stop, 1);
        });

        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, $"{statistics}; passes released {released}.");
    }

    [Fact]
    public void TheExactnessCheckCatchesATrimmerThatDoesNotCountWhatItTakes()
    {
        StripedArrayPool<byte> pool = CreatePool();
        StripedPool<byte[]> engine = pool.Engine;

        // Broken on purpose: empties the stripes but counts the removals in a totals object the pool never reads.
        var elsewhere = new PoolOwner(threadSlotTokens: -1);
        PoolStatistics? phantom = FindInexactReading(pool, () =>
        {
            for (int c = 0; c < engine.ClassCount; c++)
            {
                engine.GetStripes(c)?.Trim(0, 0, releaseAll: true, waitForClaims: false, onRemoved: null, elsewhere);
            }
        });

        Assert.NotNull(phantom);
        Assert.True(phantom.Value.Outstanding > 0, phantom.Value.ToString());
    }

    private static StripedArrayPool<byte> CreatePool() =>
        StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = false,
            TrimAge = TimeSpan.Zero,
            TimeProvider = new HourPerReadingClock(),
            PressureSource = static () => MemoryPressure.High,
        });

    /// <summary>
    /// One thread runs <paramref name="trimPass"/> without pause; the other rents and returns a burst (filling its slot,
    /// magazines and the stripes), then, quiet, reads the statistics four times. Returns the first reading that does
    /// not add up (outstanding items while none is rented, a negative count, or a broken conservation), or null.
    /// </summary>
    private static PoolStatistics? FindInexactReading(StripedArrayPool<byte> pool, Action trimPass)
    {
        int stop = 0;
        PoolStatistics? inexact = null;
        TestThreads.Run(2, index =>
        {
            if (index == 0)
            {
                // Volatile: the reader raises the flag when it is done.
                while (Volatile.Read(ref stop) == 0)
                {
                    trimPass();
                }

                return;
            }

            // More arrays of each class than a thread's slot and magazine keep, so every burst reaches the stripes.
            var held = new byte[4 * 16 * s_lengths.Length][];
            for (int round = 0; round < Rounds && inexact is null; round++)
            {
                for (int i = 0; i < held.Length; i++)
                {
                    held[i] = pool.Rent(s_lengths[(i + round) % s_lengths.Length]);
                }

                foreach (byte[] array in held)
                {
                    pool.Return(array);
                }

                for (int read = 0; read < 4 && inexact is null; read++)
                {
                    PoolStatistics statistics = pool.GetStatistics();
                    if (statistics.Outstanding != 0 || statistics.Pooled < 0 || statistics.Trimmed < 0 || !statistics.IsConserved)
                    {
                        inexact = statistics;
                    }
                }
            }

            // Volatile: ends the trimmer's loop.
            Volatile.Write(ref stop, 1);
        });

        return inexact;
    }
}
