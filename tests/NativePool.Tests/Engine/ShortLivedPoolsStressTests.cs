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

    private readonly ITestOutputHelper _output;

    public ShortLivedPoolsStressTests(ITestOutputHelper output) => _output = output;

    /// <summary>A million pools under <c>./build.sh stress</c> (a long stress duration), 100 000 in the normal run.</summary>
    [Fact]
    [Trait("Category", "Stress")]
    public void ShortLivedPoolsCreatedAndDroppedOnSeveralThreadsLeaveMemoryFlat() =>
        Run(StressDuration.Value >= TimeSpan.FromSeconds(30) ? 1_000_000 : 100_000);

    private void Run(int pools)
    {
        CollectThoroughly();
        long heapBefore = GC.GetTotalMemory(forceFullCollection: true);
        int perThread = pools / Threads;
        var tableLengths = new int[Threads];
        Exception? failure = null;
        Thread[] threads = [.. Enumerable.Range(0, Threads).Select(t => new Thread(() =>
        {
            try
            {
                for (int i = 0; i < perThread; i++)
                {
                    UseOnePool(i);
                    if (i % 4096 == 4095)
                    {
                        // Let finalizers give ids back as the run goes, as an application's collections would.
                        GC.Collect();
                    }
                }

                tableLengths[t] = ThreadCacheTable.CurrentThreadTableLength;
            }
            catch (Exception e)
            {
                failure = e;
            }
        }))];
        Array.ForEach(threads, thread => thread.Start());
        Array.ForEach(threads, thread => thread.Join());
        Assert.Null(failure);

        CollectThoroughly();
        long heapAfter = GC.GetTotalMemory(forceFullCollection: true);
        int liveIds = ThreadCacheTable.LiveIds;
        _output.WriteLine($"{pools} pools on {Threads} threads: heap {heapBefore / 1024} KiB → {heapAfter / 1024} KiB, {liveIds} live ids, tables {string.Join(", ", tableLengths)}.");

        // Other tests run beside this one and hold pools of their own: bounds far below what no reuse would need.
        Assert.InRange(liveIds, 0, 4_095);
        Assert.All(tableLengths, length => Assert.InRange(length, 1, 16_384));
        Assert.InRange(heapAfter - heapBefore, long.MinValue, 64L << 20);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void UseOnePool(int i)
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        pool.Return(pool.Rent(100 + (i % 1000)));
    }

    private static void CollectThoroughly()
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            GC.WaitForPendingFinalizers();
        }
    }
}
