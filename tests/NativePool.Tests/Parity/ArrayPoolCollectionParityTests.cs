using NativePool.Tests.Engine;

namespace NativePool.Tests.Parity;

/// <summary>
/// The ideas of the runtime's array-pool collection tests, against <see cref="StripedArrayPool{T}"/> only: upstream
/// waits 61 real seconds and reads private fields of the shared pool in a child process; ours injects the trim clock
/// and the memory-pressure source, and lets gen-2 collections drive the trimming.
/// </summary>
/// <remarks>In its own collection: the tests force gen-2 collections and count on the pool's gen-2 callback.</remarks>
[Collection(nameof(ArrayPoolCollectionParityTests))]
public sealed class ArrayPoolCollectionParityTests
{
    // Upstream's numbers: 8 arrays of 1025 ints fit in one thread's slot and magazine, so they are trimmed only if an idle
    // thread's tier is.
    private const int BufferCount = 8;
    private const int BufferLength = 1025;

    // Upstream's ThreadLocalIsCollectedUnder{High,Normal}Pressure: one array of 4097 bytes, parked in the test thread's slot.
    private const int ThreadLocalLength = 4097;

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void StaleArraysAreCollectedOnlyWhenTrimming(bool trim)
    {
        var clock = new ManualClock();
        StripedArrayPool<int> pool = CreatePool(clock, trim, () => MemoryPressure.Low);

        var rented = new List<int[]>();
        for (int i = 0; i < BufferCount; i++)
        {
            rented.Add(pool.Rent(BufferLength));
        }

        rented.ForEach(array => pool.Return(array));
        for (int i = 0; i < BufferCount; i++)
        {
            int[] again = pool.Rent(BufferLength);
            Assert.Contains(rented, array => ReferenceEquals(array, again));
        }

        rented.ForEach(array => pool.Return(array));

        // A trim pass first sees the pool idle; one past the trim age (upstream: a minute of sleep) releases arrays.
        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(61));
        CollectGen2();

        bool foundNew = false;
        for (int i = 0; i < BufferCount; i++)
        {
            int[] array = pool.Rent(BufferLength);
            foundNew |= !rented.Any(old => ReferenceEquals(old, array));
        }

        Assert.Equal(trim, foundNew);
        GC.KeepAlive(pool);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void HighPressureEmptiesALiveThreadsSlot(bool trim)
    {
        var clock = new ManualClock();
        int high = 0;

        // Volatile: the trimmer reads the pressure on the finalizer thread while this thread raises it.
        StripedArrayPool<byte> pool = CreatePool<byte>(clock, trim, () => Volatile.Read(ref high) != 0 ? MemoryPressure.High : MemoryPressure.Low);
        byte[] array = pool.Rent(ThreadLocalLength);
        pool.Return(array);
        Assert.Same(array, pool.Rent(ThreadLocalLength));
        pool.Return(array);

        // Volatile: publishes the raised pressure to the finalizer thread's next trim pass.
        Volatile.Write(ref high, 1);
        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(2));
        CollectGen2();

        // As the runtime's shared pool, which drops a live thread's thread-local array under high pressure.
        if (trim)
        {
            Assert.NotSame(array, pool.Rent(ThreadLocalLength));
            Assert.Equal(1, pool.GetStatistics().Trimmed);
        }
        else
        {
            Assert.Same(array, pool.Rent(ThreadLocalLength));
        }

        GC.KeepAlive(pool);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void HighPressureEmptiesTheStripesAndALiveThreadsSlot(bool trim)
    {
        var clock = new ManualClock();
        int high = 0;

        // Volatile: the trimmer reads the pressure on the finalizer thread while this thread raises it.
        StripedArrayPool<byte> pool = CreatePool<byte>(clock, trim, () => Volatile.Read(ref high) != 0 ? MemoryPressure.High : MemoryPressure.Low);
        // A class with no magazine (64 KiB and up), so the second array goes straight to the stripes.
        byte[] parked = pool.Rent(Large);
        byte[] striped = pool.Rent(Large);
        pool.Return(striped);
        pool.Return(parked);
        Assert.Equal(2, pool.GetStatistics().Pooled);

        // Volatile: publishes the raised pressure to the finalizer thread's next trim pass.
        Volatile.Write(ref high, 1);
        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(2));
        CollectGen2();

        // As the runtime's shared pool: under high pressure a live thread's slot is emptied too (the trimmer runs on the
        // finalizer thread; this thread is outside any operation of the pool, so its tier is reclaimed).
        if (trim)
        {
            Assert.Equal(2, pool.GetStatistics().Trimmed);
            byte[] first = pool.Rent(Large);
            byte[] second = pool.Rent(Large);
            Assert.NotSame(parked, first);
            Assert.NotSame(striped, first);
            Assert.NotSame(parked, second);
            Assert.NotSame(striped, second);
            pool.Return(second);
            pool.Return(first);
        }
        else
        {
            Assert.Same(parked, pool.Rent(Large));
            Assert.Same(striped, pool.Rent(Large));
        }

        GC.KeepAlive(pool);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void AnIdleThreadLosesItsSlotAfterTheTrimAgeOnlyWhenTrimming(bool trim)
    {
        var clock = new ManualClock();
        StripedArrayPool<byte> pool = CreatePool<byte>(clock, trim, () => MemoryPressure.Low);
        byte[] array = pool.Rent(ThreadLocalLength);
        pool.Return(array);
        Assert.Same(array, pool.Rent(ThreadLocalLength));
        pool.Return(array);

        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(61));
        CollectGen2();

        // As the runtime's shared pool, which takes a stale thread-local array under normal pressure.
        if (trim)
        {
            Assert.NotSame(array, pool.Rent(ThreadLocalLength));
            Assert.Equal(1, pool.GetStatistics().Trimmed);
        }
        else
        {
            Assert.Same(array, pool.Rent(ThreadLocalLength));
        }

        GC.KeepAlive(pool);
    }

    private const int Large = (64 * 1024) + 1;

    private static StripedArrayPool<int> CreatePool(ManualClock clock, bool trim, Func<MemoryPressure> pressure) =>
        CreatePool<int>(clock, trim, pressure);

    private static StripedArrayPool<T> CreatePool<T>(ManualClock clock, bool trim, Func<MemoryPressure> pressure) =>
        StripedArrayPool<T>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = trim,
            TrimInterval = TimeSpan.FromDays(1),
            TrimAge = TimeSpan.FromSeconds(60),
            TimeProvider = clock,
            PressureSource = pressure,
        });

    private static void CollectGen2()
    {
        Finalization.CollectAndFinalize();
    }
}
