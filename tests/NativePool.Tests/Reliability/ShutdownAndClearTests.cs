namespace NativePool.Tests.Reliability;

/// <summary>
/// Disposal reaches every live thread's parked items (native blocks are freed, not leaked), and <c>Clear</c> empties
/// the stripes even while a trim pass is running.
/// </summary>
public sealed class ShutdownAndClearTests
{
    [Fact]
    public void DisposingANativePoolFreesTheBlocksParkedOnOtherLiveThreads()
    {
        var pool = NativeBlockPool.Create(new NativeBlockPoolOptions { TrimmingEnabled = false });
        const int Threads = 4;

        // Each thread leaves one block of each size in its own slots (every lease is disposed before the next rent), then
        // stays alive, parked, until the handle is disposed.
        using StartedThreads threads = TestThreads.Start(Threads, (_, _) =>
        {
            for (int n = 0; n < 6; n++)
            {
                using NativeBlockLease small = pool.Rent(256);
                using NativeBlockLease large = pool.Rent(64 * 1024);
            }
        });
        threads.WaitForBodies();

        NativeBlockStatistics before = pool.GetStatistics();
        Assert.Equal(Threads * 2, before.LiveBlocks);
        Assert.Equal(Threads * 2, before.Blocks.Pooled);
        Assert.Equal(0, before.Blocks.Outstanding);

        pool.Dispose();

        NativeBlockStatistics after = pool.GetStatistics();
        Assert.Equal(0, after.LiveBlocks);
        Assert.Equal(0, after.LiveBytes);
        Assert.Equal(Threads * 2, after.BlocksFreed);
        Assert.Equal(after.BlocksAllocated, after.BlocksFreed);
    }

    [Fact]
    public void ClearEmptiesTheStripesEvenWhileATrimPassIsRunning()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false, StripeCount = 2 });
        int leftBehind = 0;

        // A trimmer that passes without pause until the handle is disposed.
        using (TestThreads.Start(1, (_, stopping) =>
        {
            while (!stopping.IsCancellationRequested)
            {
                pool.Trim();
            }
        }))
        {
            // Up to 300 rounds, for at most one stress duration: each Clear waits for the trim pass it races.
            long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;
            for (int round = 0; round < 300 && Environment.TickCount64 < end; round++)
            {
                // More than this thread's slot and magazine keep, so most go to the stripes.
                byte[][] arrays = [.. Enumerable.Range(0, 40).Select(_ => pool.Rent(1000))];
                Array.ForEach(arrays, array => pool.Return(array));

                pool.Clear();
                if (pool.GetStatistics().Pooled != 0)
                {
                    leftBehind++;
                }
            }
        }

        Assert.Equal(0, leftBehind);
    }
}
