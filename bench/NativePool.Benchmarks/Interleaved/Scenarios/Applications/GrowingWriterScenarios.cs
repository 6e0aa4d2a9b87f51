using System.Runtime.CompilerServices;
using CommunityToolkit.HighPerformance.Buffers;

namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// The commonest pooled-buffer shape: a buffer that grows. 256 writes of 68 bytes into a writer that starts at
/// 256 bytes and, when a write does not fit, rents a buffer for everything written plus the write, copies what it has
/// and returns the old one. Three call sites: a hand-written writer, CommunityToolkit.HighPerformance's
/// <see cref="ArrayPoolBufferWriter{T}"/> given the pool, and the same writer reaching the pool through an
/// <see cref="ArrayPool{T}"/> field. Ours is <c>StripedArrayPool&lt;byte&gt;.Shared</c>, the peer
/// <c>ArrayPool&lt;byte&gt;.Shared</c>. One operation is one whole document (about 17 KiB, six growths). Goal ≤ 0.90:
/// 99 % of the time is the copies between pooled buffers, so this row measures where the pool places its arrays.
/// Two floor rows, reported without a goal, run the same writers through <see cref="HeldArrayPool"/>: our arrays at
/// no pool cost.
/// </summary>
public static class GrowingWriterScenarios
{
    public const int Writes = 256;
    public const int WriteLength = 68;
    public const int InitialCapacity = 256;
    public const double Goal = 0.90;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<HandWritten<Striped>, HandWritten<Bcl>>(
            "app: growing writer, rent bigger + copy + return, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<Toolkit<Striped>, Toolkit<Bcl>>(
            "app: CommunityToolkit ArrayPoolBufferWriter growth, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<ToolkitField<Striped>, ToolkitField<Bcl>>(
            "app: CommunityToolkit ArrayPoolBufferWriter growth, pool in an ArrayPool<byte> field, vs ArrayPool.Shared",
            Goal,
            AllocationGoal.OursNoMoreThanPeer,
            () => new(StripedArrayPool<byte>.Shared),
            () => new(ArrayPool<byte>.Shared)),
        new InterleavedScenario<HandWritten<Held>, HandWritten<Bcl>>(
            "app: growing writer through a pool that costs nothing, holding our arrays (floor), vs ArrayPool.Shared",
            double.PositiveInfinity,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default),
        new InterleavedScenario<Toolkit<Held>, Toolkit<Bcl>>(
            "app: CommunityToolkit ArrayPoolBufferWriter growth through a pool that costs nothing, holding our arrays (floor), vs ArrayPool.Shared",
            double.PositiveInfinity,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default),
    ];

    /// <summary>One document through a hand-written growing buffer; returns the bytes written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteDocument(ArrayPool<byte> pool)
    {
        byte[] buffer = pool.Rent(InitialCapacity);
        int index = 0;
        for (int i = 0; i < Writes; i++)
        {
            if (buffer.Length - index < WriteLength)
            {
                byte[] larger = pool.Rent(index + WriteLength);
                buffer.AsSpan(0, index).CopyTo(larger);
                pool.Return(buffer);
                buffer = larger;
            }

            buffer.AsSpan(index, WriteLength).Fill((byte)i);
            index += WriteLength;
        }

        pool.Return(buffer);
        return index;
    }

    /// <summary>One document through CommunityToolkit's writer over <paramref name="pool"/>; returns the bytes written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteToolkitDocument(ArrayPool<byte> pool)
    {
        using var writer = new ArrayPoolBufferWriter<byte>(pool, InitialCapacity);
        for (int i = 0; i < Writes; i++)
        {
            writer.GetSpan(WriteLength)[..WriteLength].Fill((byte)i);
            writer.Advance(WriteLength);
        }

        return writer.WrittenCount;
    }

    private static void Check(long total, int count)
    {
        if (total != (long)count * Writes * WriteLength)
        {
            throw new InvalidOperationException("The writer lost bytes.");
        }
    }

    private readonly struct HandWritten<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            long total = 0;
            for (int i = 0; i < count; i++)
            {
                total += WriteDocument(TPool.Pool);
            }

            Check(total, count);
        }
    }

    private readonly struct Toolkit<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            long total = 0;
            for (int i = 0; i < count; i++)
            {
                total += WriteToolkitDocument(TPool.Pool);
            }

            Check(total, count);
        }
    }

    private readonly struct ToolkitField<TPool>(ArrayPool<byte> pool) : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            long total = 0;
            for (int i = 0; i < count; i++)
            {
                total += WriteToolkitDocument(pool);
            }

            Check(total, count);
        }
    }
}
