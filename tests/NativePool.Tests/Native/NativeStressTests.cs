using System.Collections.Concurrent;

namespace NativePool.Tests.Native;

/// <summary>
/// Threads rent native leases of mixed sizes, stamp a unique token over the whole block, hand some to other threads,
/// and re-check the token before disposing: a block handed to two renters at once, or freed under a lease, shows.
/// </summary>
[Trait("Category", "Stress")]
public sealed class NativeStressTests
{
    private const int MinimumPerThread = 100;

    private static readonly TimeSpan s_duration = StressDuration.Value;

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(32)]
    public void TokensStampedIntoLeasesSurviveUntilDispose(int threadCount)
    {
        var pool = NativeBlockPool.Create(new NativeBlockPoolOptions
        {
            StripeCount = 2,
            MaximumBlockSize = 64 * 1024,
            MaximumRetainedBytesPerSizeClass = 256 * 1024,
            MaximumCachingThreads = threadCount / 2,
            TrimInterval = TimeSpan.FromMilliseconds(50),
            TrimAge = TimeSpan.Zero,
        });
        var handoff = new ConcurrentQueue<(NativeBlockLease Lease, ulong Token)>();
        var failures = new ConcurrentQueue<string>();
        long deadline = Environment.TickCount64 + (long)s_duration.TotalMilliseconds;
        long operations = 0;

        void Work(int id)
        {
            var random = new Random(id);
            var held = new List<(NativeBlockLease Lease, ulong Token)>();
            ulong sequence = 0;
            long local = 0;
            // At least MinimumPerThread operations each, however late the thread gets a core on a loaded machine.
            while ((local < MinimumPerThread || Environment.TickCount64 < deadline) && failures.IsEmpty)
            {
                ulong token = ((ulong)(id + 1) << 40) | ++sequence;
                NativeBlockLease lease = pool.Rent(random.Next(0, 4) == 0 ? random.Next(65_536, 200_000) : random.Next(1, 16_384));
                Stamp(lease, token);
                held.Add((lease, token));
                local++;

                if (random.Next(4) == 0)
                {
                    handoff.Enqueue(held[^1]);
                    held.RemoveAt(held.Count - 1);
                }

                if (held.Count > 4 || (held.Count > 0 && random.Next(2) == 0))
                {
                    (NativeBlockLease Lease, ulong Token) item = held[0];
                    held.RemoveAt(0);
                    CheckAndDispose(item, failures);
                }

                if (handoff.TryDequeue(out (NativeBlockLease Lease, ulong Token) other))
                {
                    CheckAndDispose(other, failures);
                }
            }

            held.ForEach(item => CheckAndDispose(item, failures));

            // Interlocked: every thread adds its count at the end.
            Interlocked.Add(ref operations, local);
        }

        TestThreads.Run(threadCount, Work);
        while (handoff.TryDequeue(out (NativeBlockLease Lease, ulong Token) left))
        {
            CheckAndDispose(left, failures);
        }

        Assert.True(failures.IsEmpty, string.Join(Environment.NewLine, failures.Take(5)));
        Assert.True(operations >= threadCount * MinimumPerThread, $"{operations} operations");

        // Exact whatever trim passes run meanwhile: the workers' parked blocks count as pooled until their caches'
        // finalizers count them as dropped, and every move in between is retried around by the reader.
        NativeBlockStatistics quiet = pool.GetStatistics();
        Assert.Equal(0, quiet.Blocks.Outstanding);
        Assert.True(quiet.Blocks.IsConserved, quiet.ToString());
        Assert.Equal(quiet.LiveBytes, quiet.PooledBytes);

        // The workers have exited: after Dispose and their slots' finalizers, every block is freed exactly once.
        pool.Dispose();
        NativeBlockCounters counters = pool.Core.Counters;
        Finalization.WaitUntil(
            () => counters.FreedBlocks == counters.AllocatedBlocks,
            () => $"{counters.FreedBlocks} of {counters.AllocatedBlocks} blocks freed");
        Assert.Equal(counters.AllocatedBlocks, counters.FreedBlocks);
        Assert.Equal(counters.AllocatedBytes, counters.FreedBytes);
    }

    private static void Stamp(NativeBlockLease lease, ulong token)
    {
        Span<ulong> words = lease.AsSpan<ulong>();
        words.Fill(token);
        lease.Span[(words.Length * 8)..].Fill((byte)token);
    }

    private static void CheckAndDispose((NativeBlockLease Lease, ulong Token) item, ConcurrentQueue<string> failures)
    {
        Span<ulong> words = item.Lease.AsSpan<ulong>();
        int bad = words.IndexOfAnyExcept(item.Token);
        if (bad >= 0 || item.Lease.Span[(words.Length * 8)..].IndexOfAnyExcept((byte)item.Token) >= 0)
        {
            failures.Enqueue($"Lease of {item.Lease.Length} B with token {item.Token:x} was overwritten at word {bad}.");
        }

        item.Lease.Dispose();
    }
}
