namespace NativePool.Tests.Native;

/// <summary>
/// The native pools' inline thread slot: every pool of one block type shares the thread's memo of the last pool used,
/// and a block only ever goes back to the pool it came from.
/// </summary>
public sealed class NativeThreadSlotTests
{
    private const int Rounds = 1_000;

    private static NativeBlockPoolOptions Options(int alignment) => new() { Alignment = alignment, StripeCount = 1, TrimmingEnabled = false };

    [Fact]
    public unsafe void TwoPoolsOfOneBlockTypeUsedInTurnOnOneThreadEachGetTheirOwnBlocksBack()
    {
        // Both pools hold NativeBlock<byte>, so they share the thread's memo; the alignments tell their blocks apart.
        using NativeBlockPool blocks = NativeBlockPool.Create(Options(128));
        using NativeStructPool<byte> bytes = NativeStructPool<byte>.Create(Options(65_536));
        var fromBlocks = new HashSet<nint>();
        var fromBytes = new HashSet<nint>();

        for (int i = 0; i < Rounds; i++)
        {
            NativeBlockLease block = blocks.Rent(4096);
            NativeStructLease<byte> array = bytes.Rent(4096);
            fromBlocks.Add((nint)block.Pointer);
            fromBytes.Add((nint)array.Pointer);

            // Returned in both orders, so each return meets the memo holding the other pool's cache half the time.
            if (i % 2 == 0)
            {
                block.Dispose();
                array.Dispose();
            }
            else
            {
                array.Dispose();
                block.Dispose();
            }
        }

        Assert.All(fromBytes, address => Assert.Equal(0, address % 65_536));
        Assert.Empty(fromBlocks.Intersect(fromBytes));
        Assert.Equal(0, blocks.GetStatistics().Blocks.Outstanding);
        Assert.Equal(0, bytes.GetStatistics().Blocks.Outstanding);

        // Each pool built only the blocks its own peak needed: one each, reused every round.
        Assert.Equal(1, blocks.GetStatistics().BlocksAllocated);
        Assert.Equal(1, bytes.GetStatistics().BlocksAllocated);
    }

    [Fact]
    public unsafe void ABlockRentedOnOneThreadAndReturnedOnAnotherIsReusedThere()
    {
        using NativeBlockPool pool = NativeBlockPool.Create(Options(128));
        var leases = new NativeBlockLease[Rounds];
        for (int i = 0; i < Rounds; i++)
        {
            leases[i] = pool.Rent(4096);
        }

        // The returning thread never rented: its first return creates its cache, the next ones fill its slot and the
        // stripes (or free past the budget); a rent there afterwards reuses one of them and allocates nothing.
        TestThreads.RunOnNewThread(() =>
        {
            foreach (NativeBlockLease lease in leases)
            {
                lease.Dispose();
            }

            NativeBlockLease again = pool.Rent(4096);
            Assert.NotEqual(0, (nint)again.Pointer);
            again.Dispose();
        });

        Assert.Equal(0, pool.GetStatistics().Blocks.Outstanding);
        Assert.Equal(Rounds, pool.GetStatistics().BlocksAllocated);
    }
}
