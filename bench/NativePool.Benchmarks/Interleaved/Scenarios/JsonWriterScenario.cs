using System.Text.Json;
using CommunityToolkit.HighPerformance.Buffers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// An application-level serializer loop: a 40-item order document written by <see cref="Utf8JsonWriter"/> into
/// CommunityToolkit's <see cref="ArrayPoolBufferWriter{T}"/>, whose buffers come from
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c> against <c>ArrayPool&lt;byte&gt;.Shared</c>. One operation is one document
/// (about 3 KiB, so the writer grows its buffer through the pool a few times). Goal: never slower (≤ 1.00), and ours
/// allocates no more.
/// </summary>
public static class JsonWriterScenario
{
    public const int Items = 40;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Serialize, Serialize>(
            "app: JSON through a pooled IBufferWriter, StripedArrayPool vs ArrayPool",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => new Serialize(StripedArrayPool<byte>.Shared),
            () => new Serialize(ArrayPool<byte>.Shared));

    private readonly struct Serialize(ArrayPool<byte> pool) : IOperation
    {
        public void Run(int count)
        {
            long total = 0;
            for (int i = 0; i < count; i++)
            {
                using var buffer = new ArrayPoolBufferWriter<byte>(pool, 256);
                using (var writer = new Utf8JsonWriter(buffer))
                {
                    WriteOrder(writer, i);
                }

                total += buffer.WrittenCount;
            }

            if (total == 0 && count > 0)
            {
                throw new InvalidOperationException("Nothing was written.");
            }
        }

        private static void WriteOrder(Utf8JsonWriter writer, int id)
        {
            writer.WriteStartObject();
            writer.WriteNumber("id", id);
            writer.WriteString("customer", "NativePool Benchmarks Ltd.");
            writer.WriteStartArray("lines");
            for (int line = 0; line < Items; line++)
            {
                writer.WriteStartObject();
                writer.WriteNumber("sku", 100_000 + line);
                writer.WriteString("name", "widget, standard size");
                writer.WriteNumber("quantity", line % 7 + 1);
                writer.WriteNumber("price", 19.99m + line);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }
    }
}
