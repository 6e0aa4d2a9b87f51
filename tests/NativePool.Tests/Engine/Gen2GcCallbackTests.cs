using System.Runtime.CompilerServices;

namespace NativePool.Tests.Engine;

/// <summary>The gen-2 callback keeps firing while its target lives, stops once it is gone, and drives trimming.</summary>
/// <remarks>In its own collection: the tests count gen-2 collections, and other tests force collections too.</remarks>
[Collection(nameof(Gen2GcCallbackTests))]
public sealed class Gen2GcCallbackTests
{
    [Fact]
    public void CallbackRunsAfterEachGen2CollectionWhileItsTargetLives()
    {
        var target = new CountingTarget();
        Register(target);

        CollectGen2();
        int afterFirst = target.Calls;
        CollectGen2();
        int afterSecond = target.Calls;

        Assert.True(afterFirst >= 1, $"the callback ran {afterFirst} times after the first gen-2 collection");
        Assert.True(afterSecond > afterFirst, $"the callback did not run again ({afterFirst} then {afterSecond})");
        GC.KeepAlive(target);
    }

    [Fact]
    public void CallbackStopsOnceItsTargetIsCollected()
    {
        (WeakReference target, StrongBox<int> calls) = RegisterUnreferencedTarget();

        CollectGen2();
        CollectGen2();
        CollectGen2();
        Assert.False(target.IsAlive);
        // Volatile: the finalizer thread counts the calls.
        int settled = Volatile.Read(ref calls.Value);

        CollectGen2();
        CollectGen2();
        // Volatile: the finalizer thread counts the calls.
        Assert.Equal(settled, Volatile.Read(ref calls.Value));
    }

    [Fact]
    public void CallbackThatReturnsFalseIsNotCalledAgain()
    {
        var target = new CountingTarget { StopAfter = 1 };
        Register(target);

        CollectGen2();
        CollectGen2();
        CollectGen2();

        Assert.Equal(1, target.Calls);
        GC.KeepAlive(target);
    }

    [Fact]
    public void IdleArraysAreTrimmedAfterGen2CollectionsWithoutAnExplicitTrim()
    {
        var clock = new ManualClock();
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            StripeCount = 1,
            TrimInterval = TimeSpan.FromDays(1),
            TrimAge = TimeSpan.FromSeconds(10),
            TimeProvider = clock,
        });

        // One array stays in this thread's slot and up to a magazine's worth beside it; the rest go to the stripe.
        byte[][] arrays = Enumerable.Range(0, 64).Select(_ => pool.Rent(1000)).ToArray();
        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        Assert.Equal(0, pool.GetStatistics().Trimmed);

        // A trim pass first sees the stripe idle, a later one past the trim age releases half of it.
        CollectGen2();
        clock.Advance(TimeSpan.FromMinutes(1));
        CollectGen2();

        Assert.True(pool.GetStatistics().Trimmed > 0, "no gen-2 collection trimmed the idle stripe");
        GC.KeepAlive(pool);
    }

    private static void CollectGen2()
    {
        Finalization.CollectAndFinalize();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Register(CountingTarget target) =>
        Gen2GcCallback.Register(static t => ((CountingTarget)t).OnGen2(), target);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference Target, StrongBox<int> Calls) RegisterUnreferencedTarget()
    {
        var calls = new StrongBox<int>();
        var target = new CountingTarget { Shared = calls };
        Register(target);
        return (new WeakReference(target), calls);
    }

    private sealed class CountingTarget
    {
        private int _calls;

        public StrongBox<int>? Shared { get; init; }

        public int StopAfter { get; init; } = int.MaxValue;

        // Volatile: the finalizer thread counts the calls this test thread reads.
        public int Calls => Volatile.Read(ref _calls);

        public bool OnGen2()
        {
            // Interlocked: counted on the finalizer thread, read on the test thread.
            if (Shared is not null)
            {
                Interlocked.Increment(ref Shared.Value);
            }

            return Interlocked.Increment(ref _calls) < StopAfter;
        }
    }
}
