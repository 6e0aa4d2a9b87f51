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
    // More than a thread keeps in its slot and magazine (8 of these 8 KiB arrays), so most go to the stripes, where trimming works.
    private const int BufferCount = 64;
    private const int BufferLength = 1025;

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
    public void TheThreadSlotIsCollectedUnderHighPressureOnlyWhenTrimming(bool trim)
    {
        var clock = new ManualClock();
        int high = 0;

        // Volatile: the trimmer reads the pressure on the finalizer thread while this thread raises it.
        StripedArrayPool<byte> pool = CreatePool<byte>(clock, trim, () => Volatile.Read(ref high) != 0 ? MemoryPressure.High : MemoryPressure.Low);
        byte[] array = pool.Rent(4097);
        pool.Return(array);
        Assert.Same(array, pool.Rent(4097));
        pool.Return(array);

        // The trimmer runs on the finalizer thread: this thread's slot is emptied once it has been seen idle for a while.
        // Volatile: publishes the raised pressure to the finalizer thread's next trim pass.
        Volatile.Write(ref high, 1);
        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(2));
        CollectGen2();

        if (trim)
        {
            Assert.NotSame(array, pool.Rent(4097));
        }
        else
        {
            Assert.Same(array, pool.Rent(4097));
        }

        GC.KeepAlive(pool);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void AnIdleThreadKeepsItsSlotUnderNormalPressureWhetherTrimmingOrNot(bool trim)
    {
        var clock = new ManualClock();
        StripedArrayPool<byte> pool = CreatePool<byte>(clock, trim, () => MemoryPressure.Low);
        byte[] array = pool.Rent(4097);
        pool.Return(array);
        Assert.Same(array, pool.Rent(4097));
        pool.Return(array);

        CollectGen2();
        clock.Advance(TimeSpan.FromSeconds(61));
        CollectGen2();

        // Differs on purpose from the runtime's shared pool, which takes a stale thread-local array under normal
        // pressure: taking an item out of a live thread's slot can race the owner's rent (the item would be counted as
        // trimmed and handed out). The trimmer instead asks the owner to flush on its next slow operation, and takes
        // slots only under high memory pressure (the test above) or when the thread has died.
        Assert.Same(array, pool.Rent(4097));
        GC.KeepAlive(pool);
    }

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
        GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
    }
}
