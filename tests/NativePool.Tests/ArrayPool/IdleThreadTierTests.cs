using NativePool.Tests.Engine;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// What threads that stopped renting keep: nothing, once half the trim age has passed with no rent on them (everything
/// at once under high pressure), while the threads stay alive and parked. Counts read from the pool, passes driven by
/// the test with an injected clock: no sleeping, no collection.
/// </summary>
public sealed class IdleThreadTierTests
{
    private const int Threads = 64;

    private static readonly TimeSpan s_trimAge = TimeSpan.FromSeconds(60);

    [Fact]
    public void ParkedThreadsKeepNothingOnceHalfTheTrimAgePassesWithoutARent()
    {
        var clock = new ManualClock();
        StripedArrayPool<byte> pool = CreatePool(clock, () => MemoryPressure.Low);
        using StartedThreads threads = TestThreads.Start(Threads, (_, _) => RentAndReturnEveryClass(pool));
        threads.WaitForBodies();
        long parked = pool.Engine.CountParkedInThreadTiers();
        Assert.True(parked >= Threads * 13, $"{parked} items parked: every thread should keep one per class it used.");

        // The first pass sees each thread's mark; a pass short of half the trim age later leaves every tier alone.
        Assert.Equal(0, pool.Engine.Trim());
        clock.Advance((s_trimAge / 2) - TimeSpan.FromSeconds(1));
        pool.Engine.Trim();
        Assert.Equal(parked, pool.Engine.CountParkedInThreadTiers());

        clock.Advance(TimeSpan.FromSeconds(1));
        pool.Engine.Trim();

        Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());
        Assert.Equal(Threads, pool.Engine.TiersReclaimed);
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, statistics.ToString());
    }

    [Fact]
    public void HighPressureTakesEveryParkedThreadsTierInOnePass()
    {
        var clock = new ManualClock();
        MemoryPressure pressure = MemoryPressure.Low;
        StripedArrayPool<byte> pool = CreatePool(clock, () => pressure);
        using StartedThreads threads = TestThreads.Start(Threads, (_, _) => RentAndReturnEveryClass(pool));
        threads.WaitForBodies();
        Assert.NotEqual(0, pool.Engine.CountParkedInThreadTiers());

        pressure = MemoryPressure.High;
        pool.Engine.Trim();

        Assert.Equal(0, pool.Engine.CountParkedInThreadTiers());
        Assert.Equal(0, pool.GetStatistics().Pooled);
    }

    [Fact]
    public void ATierAPassClosedReopensWhenADiscardCallbackThrowsOutOfThePass()
    {
        var settings = new StripedPoolSettings
        {
            ClassCount = 1,
            CapacityPerStripe = [4],
            StripeCount = 1,
            TrimmingEnabled = false,
            Pressure = static () => MemoryPressure.High,
        };
        var pool = new StripedPool<object>(settings, static _ => new object(), static _ => throw new InvalidOperationException("discard"));
        ThreadCache<object>? cache = null;

        // A live thread parks one item in its slot; under high pressure the pass closes its tier to reclaim it.
        using StartedThreads threads = TestThreads.Start(1, (_, _) =>
        {
            pool.Return(0, new object());
            cache = pool.GetOrCreateCache();
        });
        threads.WaitForBodies();

        Assert.Throws<InvalidOperationException>(() => pool.Trim());

        Assert.Equal(0, cache!._closed);
    }

    [Fact]
    public void AThreadThatRentsBetweenPassesKeepsItsTier()
    {
        var clock = new ManualClock();
        StripedArrayPool<byte> pool = CreatePool(clock, () => MemoryPressure.Low);
        byte[] mine = pool.Rent(4096);
        pool.Return(mine);
        pool.Engine.Trim();
        for (int pass = 0; pass < 4; pass++)
        {
            clock.Advance(s_trimAge);

            // A rent between passes moves the thread's mark: the thread is in use, so its tier stays.
            pool.Return(pool.Rent(4096));
            pool.Engine.Trim();
        }

        Assert.Same(mine, pool.Rent(4096));
        Assert.Equal(0, pool.Engine.TiersReclaimed);
        pool.Return(mine);
    }

    private static StripedArrayPool<byte> CreatePool(ManualClock clock, Func<MemoryPressure> pressure) =>
        StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = false,
            TrimAge = s_trimAge,
            TimeProvider = clock,
            PressureSource = pressure,
        });

    /// <summary>One array of every power of two from 16 B to 64 KiB, rented and returned.</summary>
    /// <summary>Rents and returns every class twice: a thread that comes back for a second rent has its slots open.</summary>
    private static void RentAndReturnEveryClass(StripedArrayPool<byte> pool)
    {
        for (int round = 0; round < 2; round++)
        {
            for (int length = 16; length <= 64 * 1024; length *= 2)
            {
                byte[] array = pool.Rent(length);
                array[0] = 1;
                pool.Return(array);
            }
        }
    }
}
