using System.Runtime.CompilerServices;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.Engine;

/// <summary>
/// A pool dropped without being disposed gives back what the caches of threads that live on still hold: nothing it
/// parked stays reachable through a thread's cache table or the facade's per-thread memo once the pool is finalized.
/// </summary>
public class DroppedPoolReleaseTests
{
    private sealed class Thing;

    [Fact]
    public void ADroppedArrayPoolLeavesNothingReachableFromTheThreadThatUsedIt()
    {
        // This thread lives on (the test runs on it) and keeps its cache table and memo throughout.
        (WeakReference pool, WeakReference[] arrays, long parked) = UseAnArrayPoolAndDropIt();

        Assert.True(parked > 0, "the thread's slots and magazines must hold arrays for the test to mean anything");
        Finalization.WaitUntil(() => !pool.IsAlive, () => "the dropped pool is still reachable");
        Finalization.WaitUntil(
            () => arrays.All(array => !array.IsAlive),
            () => $"{arrays.Count(array => array.IsAlive)} of {arrays.Length} arrays still reachable");
    }

    [Fact]
    public void ADroppedObjectPoolLeavesNothingReachableFromTheThreadThatUsedIt()
    {
        (WeakReference pool, WeakReference[] objects, long parked) = UseAnObjectPoolAndDropIt();

        Assert.True(parked > 0, "the thread's slot must hold an object for the test to mean anything");
        Finalization.WaitUntil(() => !pool.IsAlive, () => "the dropped pool is still reachable");
        Finalization.WaitUntil(
            () => objects.All(thing => !thing.IsAlive),
            () => $"{objects.Count(thing => thing.IsAlive)} of {objects.Length} objects still reachable");
    }

    [Fact]
    public void ThousandsOfDroppedMemoryPoolsLeaveNothingReachableFromTheThreadThatUsedThem()
    {
        // Each pool parks owners in this thread's slot (the owner of a rented buffer must not hold its pool while parked).
        (WeakReference[] pools, long parked) = UseMemoryPoolsAndDropThem(2000);

        Assert.True(parked > 0, "the thread's slots must hold owners for the test to mean anything");
        Finalization.WaitUntil(
            () => pools.All(pool => !pool.IsAlive),
            () => $"{pools.Count(pool => pool.IsAlive)} of {pools.Length} dropped memory pools still reachable");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference[] Pools, long Parked) UseMemoryPoolsAndDropThem(int count)
    {
        var pools = new WeakReference[count];
        long parked = 0;
        for (int i = 0; i < count; i++)
        {
            StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create();
            for (int round = 0; round < 2; round++)
            {
                pool.Rent(4096).Dispose();
                MemoryLease<byte> lease = pool.RentLease(1024);
                lease.Dispose();
            }

            parked += pool.Engine.CountParkedInThreadTiers();
            pools[i] = new WeakReference(pool);
        }

        return (pools, parked);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference Pool, WeakReference[] Arrays, long Parked) UseAnArrayPoolAndDropIt()
    {
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create();
        var seen = new List<WeakReference>();
        for (int round = 0; round < 3; round++)
        {
            byte[][] held = [.. Enumerable.Range(0, 16).Select(_ => pool.Rent(4096))];
            foreach (byte[] array in held)
            {
                seen.Add(new WeakReference(array));
                pool.Return(array);
            }
        }

        return (new WeakReference(pool), [.. seen], pool.Engine.CountParkedInThreadTiers());
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference Pool, WeakReference[] Objects, long Parked) UseAnObjectPoolAndDropIt()
    {
        var pool = new StripedObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 8);
        Thing[] held = [.. Enumerable.Range(0, 8).Select(_ => pool.Get())];
        Array.ForEach(held, pool.Return);
        return (new WeakReference(pool), [.. held.Select(thing => new WeakReference(thing))], pool.Engine.CountParkedInThreadTiers());
    }
}
