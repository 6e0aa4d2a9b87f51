using System.IO;
using System.IO.Compression;
using System.IO.Pipelines;
using System.Net.Http;
using System.Text.Json;
using Microsoft.AspNetCore.Builder;
using NativePool.Samples.KestrelEcho;

namespace NativePool.IntegrationTests;

/// <summary>
/// Real clients of <see cref="PooledStream"/> and <see cref="PooledBufferWriter{T}"/>: System.Text.Json, System.IO.Pipelines,
/// <see cref="HttpClient"/> against a local Kestrel, and <see cref="GZipStream"/>. Each checks the bytes end to end and
/// that every pooled block came back.
/// </summary>
public sealed class PooledStreamClientTests
{
    private static PooledStreamManager Manager() =>
        PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = 4096, TrimmingEnabled = false });

    private static byte[] Pattern(int length)
    {
        var bytes = new byte[length];
        new Random(length).NextBytes(bytes);
        return bytes;
    }

    private static Order SampleOrder(int lines) => new(
        42,
        "NativePool Integration Ltd.",
        [.. Enumerable.Range(0, lines).Select(i => new OrderLine(100_000 + i, "widget, standard size", (i % 7) + 1, 19.99m + i))]);

    [Fact]
    public void Utf8JsonWriterIntoAPooledBufferWriterWritesWhatItWritesIntoAnArrayBufferWriter()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false });
        var expected = new ArrayBufferWriter<byte>();
        using (var writer = new PooledBufferWriter<byte>(pool))
        {
            foreach (IBufferWriter<byte> target in new IBufferWriter<byte>[] { writer, expected })
            {
                using var json = new Utf8JsonWriter(target);
                json.WriteStartObject();
                json.WriteString("name", "pooled");
                json.WriteStartArray("values");
                for (int i = 0; i < 2000; i++)
                {
                    json.WriteNumberValue(i);
                }

                json.WriteEndArray();
                json.WriteEndObject();
            }

            Assert.Equal(expected.WrittenSpan.ToArray(), writer.WrittenSpan.ToArray());
        }

        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void JsonSerializerIntoAPooledBufferWriterRoundTrips()
    {
        Order order = SampleOrder(300);
        using var writer = new PooledBufferWriter<byte>();
        using (var json = new Utf8JsonWriter(writer))
        {
            JsonSerializer.Serialize(json, order);
        }

        Assert.Equal(JsonSerializer.SerializeToUtf8Bytes(order), writer.WrittenSpan.ToArray());
        Order? back = JsonSerializer.Deserialize<Order>(writer.WrittenSpan);
        Assert.Equal(order.Lines.Length, back!.Lines.Length);
        Assert.Equal(order.Lines[^1], back.Lines[^1]);
    }

    [Fact]
    public async Task JsonSerializerIntoAPooledStreamAndBackRoundTrips()
    {
        PooledStreamManager manager = Manager();
        Order order = SampleOrder(500);
        await using (PooledStream stream = manager.GetStream())
        {
            await JsonSerializer.SerializeAsync(stream, order);
            Assert.True(stream.Length > manager.BlockSize);
            stream.Position = 0;
            Order? back = await JsonSerializer.DeserializeAsync<Order>(stream);
            Assert.Equal(order.Lines[^1], back!.Lines[^1]);
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public async Task APipeWritesIntoAPooledStreamAndReadsOutOfOne()
    {
        PooledStreamManager manager = Manager();
        byte[] data = Pattern(300_000);
        await using (PooledStream source = manager.GetStream(data))
        await using (PooledStream sink = manager.GetStream())
        {
            var pipe = new Pipe();
            Task reading = pipe.Reader.CopyToAsync(sink);
            await source.CopyToAsync(pipe.Writer);
            await pipe.Writer.CompleteAsync();
            await reading;
            Assert.Equal(data, sink.ToArray());

            // The stream as a pipe's target through PipeWriter.Create, and its sequence read by a PipeReader.
            sink.SetLength(0);
            PipeWriter writer = PipeWriter.Create(sink, new StreamPipeWriterOptions(leaveOpen: true));
            foreach (ReadOnlyMemory<byte> segment in source.GetReadOnlySequence())
            {
                await writer.WriteAsync(segment);
            }

            await writer.CompleteAsync();
            Assert.Equal(data, sink.GetReadOnlySequence().ToArray());
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public async Task HttpClientPostsAPooledStreamToKestrelAndReadsTheEchoIntoAnother()
    {
        PooledStreamManager manager = Manager();
        await using WebApplication app = EchoApp.Build(registerPool: null);
        await app.StartAsync();
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.Single()), Timeout = TimeSpan.FromSeconds(60) };

        foreach (int length in new[] { 0, 1, 4096, 70_000, 1_000_000 })
        {
            byte[] data = Pattern(length);
            PooledStream body = manager.GetStream(data);
            using (var content = new StreamContent(body))
            using (HttpResponseMessage response = await client.PostAsync(new Uri("/echo", UriKind.Relative), content))
            {
                response.EnsureSuccessStatusCode();
                await using PooledStream echoed = manager.GetStream();
                await response.Content.CopyToAsync(echoed);
                Assert.Equal(data, echoed.ToArray());
            }

            // StreamContent disposed the request body; disposing it again is allowed.
            Assert.False(body.CanRead);
            body.Dispose();
        }

        await app.StopAsync();
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void GZipStreamCompressesIntoAPooledStreamAndDecompressesOutOfIt()
    {
        PooledStreamManager manager = Manager();
        byte[] text = System.Text.Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("pooled streams compress well. ", 20_000)));
        using (PooledStream compressed = manager.GetStream())
        {
            using (var gzip = new GZipStream(compressed, CompressionLevel.Fastest, leaveOpen: true))
            {
                gzip.Write(text);
            }

            Assert.InRange(compressed.Length, 1, text.Length / 10);
            compressed.Position = 0;
            using PooledStream decompressed = manager.GetStream();
            using (var gunzip = new GZipStream(compressed, CompressionMode.Decompress, leaveOpen: true))
            {
                gunzip.CopyTo(decompressed);
            }

            Assert.Equal(text, decompressed.ToArray());
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    public sealed record OrderLine(int Sku, string Name, int Quantity, decimal Price);

    public sealed record Order(int Id, string Customer, OrderLine[] Lines);
}
