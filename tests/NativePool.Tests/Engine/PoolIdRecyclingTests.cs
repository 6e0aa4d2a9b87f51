using System.Numerics;
using System.Runtime.CompilerServices;
using Xunit.Abstractions;

namespace NativePool.Tests.Engine;

/// <summary>
/// Pool ids index every thread's cache table; a pool gives its id back when it is finalized, so creating and dropping
/// many pools keeps the ids, and the tables of the threads that used them, small.
/// </summary>
/// <remarks>Alone: the figures are process-wide (live ids), and exact only when no other test creates pools.</remarks>
[Collection(RunsAlone.Name)]
public sealed class PoolIdRecyclingTests
{
    private const int Pools = 10_000;

    private readonly ITestOutputHelper _output;

    public PoolIdRecyclingTests(ITestOutputHelper output) => _output = output;

    [Theory]
    [InlineData(1024)]
    [InlineData(128)]
    public void PoolsDroppedAndFinalizedAsTheyGoGiveEveryIdBackAndKeepTheThreadTableShort(int poolsPerCollection)
    {
        Finalization.CollectAndFinalize();
        int liveBefore = ThreadCacheTable.LiveIds;
        int tableLength = 0;
        TestThreads.RunOnNewThread(() =>
        {
            for (int i = 0; i < Pools; i++)
            {
                UseOnePool(i);
                if (i % poolsPerCollection == poolsPerCollection - 1)
                {
                    Finalization.CollectAndFinalize();
                }
            }

            tableLength = ThreadCacheTable.CurrentThreadTableLength;
        });

        Finalization.WaitUntil(
            () => ThreadCacheTable.LiveIds == liveBefore,
            () => $"{ThreadCacheTable.LiveIds} live ids, {liveBefore} before the run");
        _output.WriteLine($"{Pools} pools, a collection every {poolsPerCollection}: the thread's table peaked at {tableLength} entries.");

        // Ids go lowest-free-first, so none exceeds the live count + 1; at most the pools made since the last
        // collection, plus the one in hand, are alive beside those alive before. Without reuse: 16 384 entries.
        int peakLive = liveBefore + poolsPerCollection + 1;
        Assert.InRange(tableLength, 1, (int)Math.Max(16u, BitOperations.RoundUpToPowerOf2((uint)peakLive + 2)));
    }

    [Fact]
    public void AFinalizedPoolsIdIsTheNextOneHandedOut()
    {
        Finalization.CollectAndFinalize();
        (int id, WeakReference dropped) = CreateAndDropEnginePool();
        Finalization.WaitUntil(() => !dropped.IsAlive, () => $"the pool with id {id} is still reachable");

        // Its finalizer was queued by the collection that found it dead; this waits for it to give the id back.
        Finalization.CollectAndFinalize();

        // The lowest free id goes first (ids start at 0), and no other test creates pools meanwhile.
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var pool = new StripedPool<object>(settings, static _ => new object());
        Assert.InRange(pool.Id, 0, id);
        GC.KeepAlive(pool);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void UseOnePool(int i)
    {
        var pool = StripedArrayPool<byte>.Create();
        byte[] array = pool.Rent(16 + (i % 100));
        pool.Return(array);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (int Id, WeakReference Pool) CreateAndDropEnginePool()
    {
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var pool = new StripedPool<object>(settings, static _ => new object());
        pool.Return(0, pool.Rent(0));
        return (pool.Id, new WeakReference(pool));
    }
}
