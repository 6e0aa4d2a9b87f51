using System.Numerics;
using System.Runtime.CompilerServices;
using Xunit.Abstractions;

namespace NativePool.Tests.Engine;

/// <summary>
/// A million short-lived pools, each used once on one of several threads and dropped: ids are recycled and every
/// thread's stale caches are replaced, so live ids, table lengths and the managed heap stay flat.
/// </summary>
[Collection(RunsAlone.Name)]
public sealed class ShortLivedPoolsStressTests
{
    private const int Threads = 4;

    /// <summary>Pools a thread creates between two of its own collect-and-finalize rounds.</summary>
    private const int PoolsPerCollection = 1024;

    private readonly ITestOutputHelper _output;

    public ShortLivedPoolsStressTests(ITestOutputHelper output) => _output = output;

    /// <summary>A million pools under <c>./build.sh stress</c>, 100 000 in the normal run.</summary>
    [Fact]
    [Trait("Category", "Stress")]
    public void ShortLivedPoolsCreatedAndDroppedOnSeveralThreadsLeaveMemoryFlat() =>
        Run(StressDuration.IsLong ? 1_000_000 : 100_000);

    private void Run(int pools)
    {
        Finalization.CollectAndFinalize();
        int liveBefore = ThreadCacheTable.LiveIds;
        long heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        int perThread = pools / Threads;
        var tableLengths = new int[Threads];
        TestThreads.Run(Threads, t =>
        {
            for (int i = 0; i < perThread; i++)
            {
                UseOnePool(i);
                if (i % PoolsPerCollection == PoolsPerCollection - 1)
                {
                    // Every pool this thread dropped before this point has given its id back when this returns.
                    Finalization.CollectAndFinalize();
                }
            }

            tableLengths[t] = ThreadCacheTable.CurrentThreadTableLength;
        });

        Finalization.WaitUntil(
            () => ThreadCacheTable.LiveIds == liveBefore,
            () => $"{ThreadCacheTable.LiveIds} live ids, {liveBefore} before the run");
        long heapAfter = GC.GetTotalMemory(forceFullCollection: true);
        _output.WriteLine($"{pools} pools on {Threads} threads: heap {heapBefore / 1024} KiB → {heapAfter / 1024} KiB, {liveBefore} live ids before and after, tables {string.Join(", ", tableLengths)}.");

        // At any instant each thread holds at most the pools it made since its last round plus the one in hand, and ids
        // go lowest-free-first, so no id exceeds the live count + 1: that bounds every table (16 entries at least).
        int peakLive = liveBefore + (Threads * (PoolsPerCollection + 1));
        int tableBound = (int)Math.Max(16u, BitOperations.RoundUpToPowerOf2((uint)peakLive + 2));
        Assert.All(tableLengths, length => Assert.InRange(length, 1, tableBound));

        // What may remain: the id free list (a few bytes per id ever live), nothing per pool made.
        Assert.InRange(heapAfter - heapBefore, long.MinValue, 1L << 20);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void UseOnePool(int i)
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        pool.Return(pool.Rent(100 + (i % 1000)));
    }
}
