using System.Buffers.Binary;
using System.Collections.Concurrent;
using Microsoft.Extensions.ObjectPool;
using NativePool.Tests.Engine;
using NativePool.Tests.ObjectPool;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// Trim passes reclaim the slots and magazines of live threads while those threads rent and return, pause with items
/// parked, and wake up in the middle of passes. Each rented item carries a stamped token (an object its holder) checked before it goes back:
/// a native block freed under its lease, or handed to a second renter, breaks a token; a managed array taken by a pass
/// while its owner hands it out breaks the statistics (it would count as trimmed and as outstanding).
/// </summary>
[Trait("Category", "Stress")]
public sealed class ThreadTierReclaimStressTests
{
    private const int MinimumPerThread = 200;

    private static readonly int[] s_lengths = [16, 100, 1000, 4096, 9000, 70_000];

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    public void ArraysStampedWhileTiersAreReclaimedComeBackIntactAndTheCountsAddUp(int workers)
    {
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = false,
            TrimAge = TimeSpan.Zero,
            TimeProvider = new ManualClock(),
        });
        var failures = new ConcurrentQueue<string>();
        long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;

        void Worker(int id, Random random)
        {
            var held = new List<(byte[] Array, ulong Token)>();
            ulong sequence = 0;
            for (long done = 0; done < MinimumPerThread || Environment.TickCount64 < end; done++)
            {
                ulong token = ((ulong)(id + 1) << 40) | ++sequence;
                byte[] array = pool.Rent(s_lengths[random.Next(s_lengths.Length)]);
                BinaryPrimitives.WriteUInt64LittleEndian(array, token);
                BinaryPrimitives.WriteUInt64LittleEndian(array.AsSpan(array.Length - 8), token);
                held.Add((array, token));
                if (held.Count > 3 || random.Next(2) == 0)
                {
                    (byte[] Array, ulong Token) oldest = held[0];
                    held.RemoveAt(0);
                    CheckArray(oldest.Array, oldest.Token, failures);
                    pool.Return(oldest.Array);
                }

                Pause(random);
            }

            held.ForEach(item =>
            {
                CheckArray(item.Array, item.Token, failures);
                pool.Return(item.Array);
            });
        }

        long reclaimed = RunWithTrimmer(workers, Worker, pool.Engine.Trim, () => pool.Engine.TiersReclaimed);

        Assert.Empty(failures);
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, statistics.ToString());
        Assert.True(reclaimed > 0, "No pass reclaimed a live thread's tier: the test did not race the protocol.");
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    public void NativeBlocksStampedWhileTiersAreReclaimedAreNeverFreedUnderALease(int workers)
    {
        using var pool = NativeBlockPool.Create(new NativeBlockPoolOptions
        {
            StripeCount = 2,
            MaximumBlockSize = 64 * 1024,
            TrimmingEnabled = false,
            TrimAge = TimeSpan.Zero,
        });
        var failures = new ConcurrentQueue<string>();
        long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;

        void Worker(int id, Random random)
        {
            var held = new List<(NativeBlockLease Lease, ulong Token)>();
            ulong sequence = 0;
            for (long done = 0; done < MinimumPerThread || Environment.TickCount64 < end; done++)
            {
                ulong token = ((ulong)(id + 1) << 40) | ++sequence;
                NativeBlockLease lease = pool.Rent(s_lengths[random.Next(s_lengths.Length - 1)]);
                lease.Span.Fill((byte)token);
                BinaryPrimitives.WriteUInt64LittleEndian(lease.Span, token);
                held.Add((lease, token));
                if (held.Count > 3 || random.Next(2) == 0)
                {
                    (NativeBlockLease Lease, ulong Token) oldest = held[0];
                    held.RemoveAt(0);
                    CheckBlock(oldest.Lease, oldest.Token, failures);
                    oldest.Lease.Dispose();
                }

                Pause(random);
            }

            held.ForEach(item =>
            {
                CheckBlock(item.Lease, item.Token, failures);
                item.Lease.Dispose();
            });
        }

        long reclaimed = RunWithTrimmer(workers, Worker, pool.Core.Engine.Trim, () => pool.Core.Engine.TiersReclaimed);

        Assert.Empty(failures);
        NativeBlockStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Blocks.Outstanding);
        Assert.True(statistics.Blocks.IsConserved, statistics.ToString());

        // Every block the pool let go of was freed, exactly once: what is still live is what it holds.
        Assert.Equal(statistics.Blocks.Pooled, statistics.LiveBlocks);
        Assert.True(reclaimed > 0, "No pass reclaimed a live thread's tier: the test did not race the protocol.");
    }

    [Fact]
    public void OwnersRentingInTightLoopsNeverHandOutWhatAPassTook()
    {
        // The window a pass must never land in is an owner's few instructions between its slot's load and clearing
        // store. A tight loop of slot hits spends much of its time there, and with more owners than cores some are
        // preempted inside it for a whole quantum: a pass that took without proving the owner outside (the mark
        // unchanged across the barrier) would count an array as trimmed that the owner then hands out.
        StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            TrimmingEnabled = false,
            TrimAge = TimeSpan.Zero,
            TimeProvider = new ManualClock(),
        });
        long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;

        void Owner(int id, Random random)
        {
            for (long done = 0; done < 100_000 || Environment.TickCount64 < end; done++)
            {
                byte[] array = pool.Rent(4096);
                array[0] = (byte)done;
                pool.Return(array);
                if ((done & 0xFFF) == 0)
                {
                    // Now and then long enough for a pass to find the owner outside and reclaim its slot.
                    Thread.SpinWait(random.Next(20_000));
                }
            }
        }

        long reclaimed = RunWithTrimmer(4 * Environment.ProcessorCount, Owner, releaseAll => pool.Engine.Trim(releaseAll: true), () => pool.Engine.TiersReclaimed);

        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, statistics.ToString());
        Assert.True(reclaimed > 0, "No pass reclaimed an owner's tier: the test did not race the protocol.");
    }

    [Fact]
    public void ObjectsLentFromTheirOwnersSlotsAreNeverTakenByAPass()
    {
        // An object pool's get lends the slot's object and leaves the reference in the slot, and the return that gives
        // it back writes only the lent flag, with no mark. A pass that took a lent object would dispose it under its
        // holder (this pool disposes what a pass takes) and count it as trimmed, and its return would then count it as
        // pooled as well.
        using var pool = new StripedObjectPool<DisposableThing>(
            new DefaultPooledObjectPolicy<DisposableThing>(),
            new StripedObjectPoolOptions { MaximumRetained = 16, DisposeItems = true, TimeProvider = new ManualClock(), TrimAge = TimeSpan.Zero });
        var failures = new ConcurrentQueue<string>();
        long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;

        void Owner(int id, Random random)
        {
            for (long done = 0; done < 100_000 || Environment.TickCount64 < end; done++)
            {
                DisposableThing first = Hold(pool.Get(), id, failures);
                if ((done & 7) == 0)
                {
                    // Now and then two at once, so the slot is also filled and emptied by the pair moves.
                    DisposableThing second = Hold(pool.Get(), id, failures);
                    pool.Return(Release(second, failures));
                }

                pool.Return(Release(first, failures));
                if ((done & 0xFFF) == 0)
                {
                    // Now and then long enough for a pass to find the owner outside and reclaim its slot.
                    Thread.SpinWait(random.Next(20_000));
                }
            }
        }

        long reclaimed = RunWithTrimmer(4 * Environment.ProcessorCount, Owner, releaseAll => pool.Engine.Trim(releaseAll), () => pool.Engine.TiersReclaimed);

        Assert.Empty(failures);
        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, statistics.ToString());
        Assert.True(reclaimed > 0, "No pass reclaimed an owner's tier: the test did not race the protocol.");
    }

    /// <summary>Runs <paramref name="workers"/> workers and one trimmer, which alternates aged and release-all passes until the workers end.</summary>
    /// <returns>The tiers the passes reclaimed.</returns>
    private static long RunWithTrimmer(int workers, Action<int, Random> worker, Func<bool, int> trim, Func<long> tiersReclaimed)
    {
        int running = workers;
        TestThreads.Run(workers + 1, index =>
        {
            if (index == workers)
            {
                // Volatile: the last worker to end brings the count to zero.
                for (int pass = 0; Volatile.Read(ref running) != 0; pass++)
                {
                    trim(pass % 2 == 1);
                }

                return;
            }

            try
            {
                worker(index, new Random(index));
            }
            finally
            {
                // Interlocked: workers end on their own threads; the trimmer stops after the last.
                Interlocked.Decrement(ref running);
            }
        });

        return tiersReclaimed();
    }

    /// <summary>Pauses of varying length, so passes find the thread idle with items parked, and it wakes up during some.</summary>
    private static void Pause(Random random)
    {
        int kind = random.Next(8);
        if (kind == 0)
        {
            Thread.Yield();
        }
        else if (kind < 4)
        {
            Thread.SpinWait(random.Next(2000));
        }
    }

    private static void CheckArray(byte[] array, ulong token, ConcurrentQueue<string> failures)
    {
        if (BinaryPrimitives.ReadUInt64LittleEndian(array) != token ||
            BinaryPrimitives.ReadUInt64LittleEndian(array.AsSpan(array.Length - 8)) != token)
        {
            failures.Enqueue($"An array of {array.Length} bytes lost its token {token:x}: another renter wrote it.");
        }
    }

    private static void CheckBlock(NativeBlockLease lease, ulong token, ConcurrentQueue<string> failures)
    {
        Span<byte> span = lease.Span;
        if (BinaryPrimitives.ReadUInt64LittleEndian(span) != token || span[8..].IndexOfAnyExcept((byte)token) >= 0)
        {
            failures.Enqueue($"A block of {span.Length} bytes lost its token {token:x}: freed or handed out under its lease.");
        }
    }

    private static DisposableThing Hold(DisposableThing thing, int id, ConcurrentQueue<string> failures)
    {
        // Interlocked: settles two renters handed the same object at once; only the first stamps it.
        if (thing.IsDisposed || Interlocked.CompareExchange(ref thing.Holder, id + 1, 0) != 0)
        {
            failures.Enqueue($"An object was handed out disposed or while another thread held it (holder {thing.Holder}).");
        }

        return thing;
    }

    private static DisposableThing Release(DisposableThing thing, ConcurrentQueue<string> failures)
    {
        if (thing.DisposedWhileHeld)
        {
            failures.Enqueue("A pass disposed an object while its renter held it.");
        }

        // Volatile: clears the holder before the object goes back, where a pass may take it.
        Volatile.Write(ref thing.Holder, 0);
        return thing;
    }
}
