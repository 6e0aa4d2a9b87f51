using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace NativePool.Tests.Diagnostics;

/// <summary>The NativePool event source, read in-process with an <see cref="EventListener"/> and filtered by pool name.</summary>
public class EventSourceTests
{
    [Fact]
    public void TheEventSourceRaisesExactEventsForAScriptedSequence()
    {
        string name = "events-" + Guid.NewGuid().ToString("N");
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Name = name, MaximumArrayLength = 1024, TrimmingEnabled = false });
        using var listener = new PoolEventListener(name);

        byte[] a = pool.Rent(100);
        pool.Return(a);
        byte[] again = pool.Rent(100);
        Assert.Same(a, again);
        pool.Return(again);
        Assert.Throws<InvalidOperationException>(() => pool.Return(a));
        byte[] big = pool.Rent(5000);
        pool.Return(big);
        Assert.Equal(1, pool.Clear());

        Assert.Equal(3, listener.Count("BufferRented"));
        Assert.Equal(4, listener.Count("BufferReturned"));
        Assert.Equal(1, listener.Count("DoubleReturn"));
        Assert.Equal(1, listener.Count("BufferTrimPoll"));
        Assert.Equal(1, listener.Count("BufferTrimmed"));
        Assert.Equal(1, listener.Count("BufferDropped"));
        Assert.Equal([0, 1], listener.Payloads("BufferAllocated", "reason").Select(AsInt));
        Assert.Equal([1], listener.Payloads("BufferDropped", "reason").Select(AsInt));
        Assert.Equal([1], listener.Payloads("BufferTrimmed", "count").Select(AsInt));
        Assert.Equal([128, 128, 5000], listener.Payloads("BufferRented", "bufferSize").Select(AsInt));
        Assert.All(listener.Payloads("BufferRented", "poolId"), id => Assert.Equal(pool.Engine.Id, AsInt(id)));
    }

    [Fact]
    public void AListenerAttachedToAHotPoolSeesEveryLaterRentAndReturn()
    {
        string name = "hot-" + Guid.NewGuid().ToString("N");
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Name = name, TrimmingEnabled = false });

        // Hot: the thread's cache is published to the inlined paths, which raise no events while nobody listens.
        for (int i = 0; i < 1000; i++)
        {
            pool.Return(pool.Rent(4096));
        }

        using (var listener = new PoolEventListener(name))
        {
            for (int i = 0; i < 10; i++)
            {
                pool.Return(pool.Rent(4096));
            }

            Assert.Equal(10, listener.Count("BufferRented"));
            Assert.Equal(10, listener.Count("BufferReturned"));
        }

        // And the shared pool, whose inlined path reads a thread static of its own: the same on attach.
        StripedArrayPool<byte> shared = StripedArrayPool<byte>.Shared;
        byte[] warm = shared.Rent(12345);
        shared.Return(warm);
        using var sharedListener = new PoolEventListener(shared.Name);
        byte[] rented = shared.Rent(12345);
        shared.Return(rented);
        Assert.Contains(RuntimeHelpers.GetHashCode(rented), sharedListener.Payloads("BufferRented", "bufferId").Select(AsInt));
        Assert.Contains(RuntimeHelpers.GetHashCode(rented), sharedListener.Payloads("BufferReturned", "bufferId").Select(AsInt));
    }

    [Fact]
    public void AnObjectPoolReportsRejectedObjectsAsDropped()
    {
        string name = "rejects-" + Guid.NewGuid().ToString("N");
        var pool = new StripedObjectPool<List<int>>(new RejectingPolicy(), new StripedObjectPoolOptions { Name = name });
        using var listener = new PoolEventListener(name);

        pool.Return(pool.Get());

        Assert.Equal(1, listener.Count("BufferAllocated"));
        Assert.Equal([2], listener.Payloads("BufferDropped", "reason").Select(AsInt));
    }

    private static int AsInt(object? value) => Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture);

    private sealed class RejectingPolicy : Microsoft.Extensions.ObjectPool.PooledObjectPolicy<List<int>>
    {
        public override List<int> Create() => [];

        public override bool Return(List<int> obj) => false;
    }
}
