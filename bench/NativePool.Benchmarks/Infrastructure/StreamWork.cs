using System.IO;
using System.Text.Json;
using Microsoft.IO;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>The work the stream and buffer-writer benchmarks share, so both benchmark kinds time the same thing.</summary>
public static class StreamWork
{
    /// <summary>The chunk every write scenario writes in.</summary>
    public const int ChunkBytes = 4096;

    /// <summary>The bytes written, chunk by chunk.</summary>
    private static readonly byte[] s_chunk = CreateChunk();

    /// <summary>The peer manager: RecyclableMemoryStream with its default options.</summary>
    public static RecyclableMemoryStreamManager Recyclable { get; } = new();

    /// <summary>An order graph of about 10 KiB of JSON (checked by the tests through <see cref="SerializedOrderBytes"/>).</summary>
    public static Order Order { get; } = CreateOrder(60);

    /// <summary>The UTF-8 JSON length of <see cref="Order"/>.</summary>
    public static int SerializedOrderBytes => JsonSerializer.SerializeToUtf8Bytes(Order).Length;

    /// <summary>Writes <paramref name="bytes"/> into <paramref name="stream"/> in <see cref="ChunkBytes"/> writes.</summary>
    public static void WriteChunks(Stream stream, int bytes)
    {
        for (int written = 0; written < bytes; written += ChunkBytes)
        {
            stream.Write(s_chunk, 0, Math.Min(ChunkBytes, bytes - written));
        }
    }

    /// <summary>Sums every 64th byte of <paramref name="sequence"/>, reading every segment.</summary>
    public static long ReadBack(in ReadOnlySequence<byte> sequence)
    {
        long sum = 0;
        foreach (ReadOnlyMemory<byte> segment in sequence)
        {
            ReadOnlySpan<byte> span = segment.Span;
            for (int i = 0; i < span.Length; i += 64)
            {
                sum += span[i];
            }
        }

        return sum;
    }

    /// <summary>Serializes <see cref="Order"/> into <paramref name="buffer"/>.</summary>
    public static void SerializeOrder(IBufferWriter<byte> buffer)
    {
        using var writer = new Utf8JsonWriter(buffer);
        JsonSerializer.Serialize(writer, Order);
    }

    private static byte[] CreateChunk()
    {
        var chunk = new byte[ChunkBytes];
        new Random(1).NextBytes(chunk);
        return chunk;
    }

    private static Order CreateOrder(int lines) => new(
        42,
        "NativePool Benchmarks Ltd.",
        [.. Enumerable.Range(0, lines).Select(i => new OrderLine(100_000 + i, "widget, standard size, boxed", (i % 7) + 1, 19.99m + i, "warehouse " + (i % 5)))]);
}
