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
        using var parked = new CountdownEvent(Threads);
        using var release = new ManualResetEventSlim();
        Thread[] threads = [.. Enumerable.Range(0, Threads).Select(i => new Thread(() =>
        {
            // Each thread leaves blocks of two sizes in its own slots and magazine, then stays alive.
            for (int n = 0; n < 6; n++)
            {
                using NativeBlockLease small = pool.Rent(256);
                using NativeBlockLease large = pool.Rent(64 * 1024);
            }

            parked.Signal();
            release.Wait();
        }))];
        Array.ForEach(threads, thread => thread.Start());
        parked.Wait();
        try
        {
            NativeBlockStatistics before = pool.GetStatistics();
            Assert.True(before.LiveBlocks >= Threads * 2, before.ToString());

            pool.Dispose();

            NativeBlockStatistics after = pool.GetStatistics();
            Assert.Equal(0, after.LiveBlocks);
            Assert.Equal(0, after.LiveBytes);
            Assert.Equal(after.BlocksAllocated, after.BlocksFreed);
        }
        finally
        {
            release.Set();
            Array.ForEach(threads, thread => thread.Join());
        }
    }

    [Fact]
    public void ClearEmptiesTheStripesEvenWhileATrimPassIsRunning()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false, StripeCount = 2 });
        using var stop = new ManualResetEventSlim();
        var trimmer = new Thread(() =>
        {
            while (!stop.IsSet)
            {
                pool.Trim();
            }
        });
        trimmer.Start();
        int leftBehind = 0;
        try
        {
            for (int round = 0; round < 300; round++)
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
        finally
        {
            stop.Set();
            trimmer.Join();
        }

        Assert.Equal(0, leftBehind);
    }
}
