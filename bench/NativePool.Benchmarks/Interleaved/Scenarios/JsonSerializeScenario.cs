using CommunityToolkit.HighPerformance.Buffers;
using NativePool.Benchmarks.Infrastructure;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>JsonSerializer.Serialize</c> of an order graph of about 10 KiB through a <c>Utf8JsonWriter</c> into
/// <see cref="PooledBufferWriter{T}"/> (over <c>StripedArrayPool&lt;byte&gt;.Shared</c>) against CommunityToolkit's
/// <c>ArrayPoolBufferWriter&lt;byte&gt;</c> over <c>ArrayPool&lt;byte&gt;.Shared</c>, both starting at 256 bytes. One
/// operation is one document. Goal ≤ 0.90, ours allocating no more (both allocate their writer objects and STJ's).
/// </summary>
public static class JsonSerializeScenario
{
    public static InterleavedScenario Create() =>
        new InterleavedScenario<Pooled, Toolkit>(
            "writer: STJ serialize 10 KiB graph, PooledBufferWriter vs ArrayPoolBufferWriter",
            0.90,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default);

    private readonly struct Pooled : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                using var buffer = new PooledBufferWriter<byte>();
                StreamWork.SerializeOrder(buffer);
            }
        }
    }

    private readonly struct Toolkit : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                using var buffer = new ArrayPoolBufferWriter<byte>(ArrayPool<byte>.Shared);
                StreamWork.SerializeOrder(buffer);
            }
        }
    }
}
