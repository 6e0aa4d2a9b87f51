using System.Numerics;
using System.Runtime.CompilerServices;
using NativePool.Tests.ArrayPool;
using Xunit.Abstractions;

namespace NativePool.Tests.Engine;

/// <summary>
/// Pool ids index every thread's cache table; a pool gives its id back when it is finalized, so creating and dropping
/// many pools keeps the ids, and the tables of the threads that used them, small.
/// </summary>
public sealed class PoolIdRecyclingTests
{
    private const int Pools = 10_000;

    private const int Bound = 1024;

    private readonly ITestOutputHelper _output;

    public PoolIdRecyclingTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void ManyPoolsCreatedAndDroppedLeaveFewLiveIdsAndAThreadTableShorterThanTheirCount()
    {
        int tableLength = 0;
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < Pools; i++)
            {
                UseOnePool(i);
            }

            CollectThoroughly();
            tableLength = ThreadCacheTable.CurrentThreadTableLength;
        });

        CollectThoroughly();
        int liveIds = ThreadCacheTable.LiveIds;
        _output.WriteLine($"{Pools} pools: {liveIds} live ids afterwards, the thread's table peaked at {tableLength} entries.");

        // Other tests create pools concurrently, so only a bound far below the number of pools made here.
        Assert.InRange(liveIds, 0, Bound - 1);

        // The table grows to the highest id the thread saw and never shrinks; ids are freed by finalizers, which lag
        // behind a tight loop, so the peak depends on the collector. Without reuse it would need 16384 entries.
        Assert.InRange(tableLength, 1, (int)BitOperations.RoundUpToPowerOf2(Pools) / 2);
    }

    [Fact]
    public void PoolsDroppedAndCollectedAsTheyGoKeepTheThreadTableShort()
    {
        int tableLength = 0;
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < Pools; i++)
            {
                UseOnePool(i);
                if (i % 128 == 127)
                {
                    CollectThoroughly();
                }
            }

            tableLength = ThreadCacheTable.CurrentThreadTableLength;
        });

        CollectThoroughly();
        Assert.InRange(ThreadCacheTable.LiveIds, 0, Bound - 1);
        Assert.InRange(tableLength, 1, Bound - 1);
    }

    [Fact]
    public void AFinalizedPoolsIdIsReused()
    {
        int id = CreateAndDropEnginePool();
        CollectThoroughly();

        // The lowest free id goes first; other tests may take it in between, so try a few pools.
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var kept = new List<StripedPool<object>>();
        bool reused = false;
        for (int i = 0; i < 64 && !reused; i++)
        {
            var pool = new StripedPool<object>(settings, static _ => new object());
            kept.Add(pool);
            reused = pool.Id <= id;
        }

        Assert.True(reused, $"No new pool took an id at or below the finalized pool's id {id}.");
        GC.KeepAlive(kept);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void UseOnePool(int i)
    {
        var pool = StripedArrayPool<byte>.Create();
        byte[] array = pool.Rent(16 + (i % 100));
        pool.Return(array);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int CreateAndDropEnginePool()
    {
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var pool = new StripedPool<object>(settings, static _ => new object());
        pool.Return(0, pool.Rent(0));
        return pool.Id;
    }

    private static void CollectThoroughly()
    {
        for (int i = 0; i < 4; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }
}
