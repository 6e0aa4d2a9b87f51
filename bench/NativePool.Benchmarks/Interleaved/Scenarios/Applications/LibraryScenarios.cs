using System.Buffers;
using CommunityToolkit.HighPerformance.Buffers;
using MessagePack;
using Nerdbank.Streams;

namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// Third-party libraries that take an <see cref="ArrayPool{T}"/> as a parameter, handed
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c> (ours) or <c>ArrayPool&lt;byte&gt;.Shared</c> (the peer):
/// CommunityToolkit.HighPerformance's <see cref="MemoryOwner{T}"/> and <see cref="SpanOwner{T}"/> (4 KiB, written),
/// MessagePack serializing a 2 000-number document through a <c>SequencePool</c> over the pool, and
/// Nerdbank.Streams' <c>Sequence&lt;byte&gt;</c> over the pool taking 64 KiB in 68-byte writes. Goal ≤ 1.00. A floor row,
/// without a goal, serializes through <see cref="HeldArrayPool"/>: our arrays at no pool cost.
/// </summary>
public static class LibraryScenarios
{
    public const int OwnerLength = 4096;
    public const int SequenceWrites = 964;
    public const int WriteLength = 68;

    private static readonly Dictionary<string, int[]> s_document = new()
    {
        ["ids"] = Enumerable.Range(0, 1000).ToArray(),
        ["quantities"] = Enumerable.Range(0, 1000).Select(i => i * 7919).ToArray(),
    };

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<MemoryOwners<Striped>, MemoryOwners<Bcl>>(
            "app: CommunityToolkit MemoryOwner<byte>.Allocate(4096, pool), vs ArrayPool.Shared", 1.00, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<SpanOwners<Striped>, SpanOwners<Bcl>>(
            "app: CommunityToolkit SpanOwner<byte>.Allocate(4096, pool), vs ArrayPool.Shared", 1.00, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<MessagePackSerialize<Striped>, MessagePackSerialize<Bcl>>(
            "app: MessagePack Serialize through a SequencePool over the pool, vs ArrayPool.Shared",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => new(MessagePackSerializerOptions.Standard.WithPool(new SequencePool(Environment.ProcessorCount * 2, StripedArrayPool<byte>.Shared))),
            () => new(MessagePackSerializerOptions.Standard.WithPool(new SequencePool(Environment.ProcessorCount * 2, ArrayPool<byte>.Shared)))),
        new InterleavedScenario<MessagePackSerialize<Held>, MessagePackSerialize<Bcl>>(
            "app: MessagePack Serialize through a SequencePool over a pool that costs nothing, holding our arrays (floor), vs ArrayPool.Shared",
            double.PositiveInfinity,
            AllocationGoal.OursNoMoreThanPeer,
            () => new(MessagePackSerializerOptions.Standard.WithPool(new SequencePool(Environment.ProcessorCount * 2, Held.Pool))),
            () => new(MessagePackSerializerOptions.Standard.WithPool(new SequencePool(Environment.ProcessorCount * 2, ArrayPool<byte>.Shared)))),
        new InterleavedScenario<SequenceFill<Striped>, SequenceFill<Bcl>>(
            "app: Nerdbank.Streams Sequence<byte> over the pool, 64 KiB in 68 B writes, vs ArrayPool.Shared",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => new(new Sequence<byte>(StripedArrayPool<byte>.Shared)),
            () => new(new Sequence<byte>(ArrayPool<byte>.Shared))),
    ];

    private readonly struct MemoryOwners<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                using MemoryOwner<byte> owner = MemoryOwner<byte>.Allocate(OwnerLength, pool, AllocationMode.Default);
                owner.Span[i & (OwnerLength - 1)] = (byte)i;
            }
        }
    }

    private readonly struct SpanOwners<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                using SpanOwner<byte> owner = SpanOwner<byte>.Allocate(OwnerLength, pool, AllocationMode.Default);
                owner.Span[i & (OwnerLength - 1)] = (byte)i;
            }
        }
    }

    private readonly struct MessagePackSerialize<TPool>(MessagePackSerializerOptions options) : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            long total = 0;
            for (int i = 0; i < count; i++)
            {
                total += MessagePackSerializer.Serialize(s_document, options).Length;
            }

            GC.KeepAlive(total);
        }
    }

    private readonly struct SequenceFill<TPool>(Sequence<byte> sequence) : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count) => Fill(sequence, count);
    }

    /// <summary>Fills and resets <paramref name="sequence"/> <paramref name="count"/> times (inlined into each side's loop).</summary>
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
    private static void Fill(Sequence<byte> sequence, int count)
    {
        for (int i = 0; i < count; i++)
        {
            for (int w = 0; w < SequenceWrites; w++)
            {
                sequence.GetSpan(WriteLength)[..WriteLength].Fill((byte)w);
                sequence.Advance(WriteLength);
            }

            if (sequence.Length != (long)SequenceWrites * WriteLength)
            {
                throw new InvalidOperationException("The sequence lost bytes.");
            }

            sequence.Reset();
        }
    }
}
