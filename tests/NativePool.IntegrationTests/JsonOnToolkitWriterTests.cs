using System.Text.Json;
using CommunityToolkit.HighPerformance.Buffers;

namespace NativePool.IntegrationTests;

/// <summary>CommunityToolkit.HighPerformance's <see cref="ArrayPoolBufferWriter{T}"/> on our array pool, feeding <see cref="Utf8JsonWriter"/>.</summary>
public sealed class JsonOnToolkitWriterTests
{
    public sealed record Order(int Id, string Customer, double Total, List<string> Items, DateTimeOffset Placed);

    [Fact]
    public void JsonWrittenThroughTheToolkitWriterOnTheSharedPoolRoundTrips()
    {
        Order[] orders = MakeOrders(500);
        using var writer = new ArrayPoolBufferWriter<byte>(StripedArrayPool<byte>.Shared);
        using (var json = new Utf8JsonWriter(writer))
        {
            JsonSerializer.Serialize(json, orders);
        }

        Order[] back = JsonSerializer.Deserialize<Order[]>(writer.WrittenSpan)!;
        Assert.Equal(orders.Length, back.Length);
        for (int i = 0; i < orders.Length; i++)
        {
            Assert.Equal(orders[i] with { Items = back[i].Items }, back[i]);
            Assert.Equal(orders[i].Items, back[i].Items);
        }
    }

    [Fact]
    public void TheWriterGrowsThroughOurPoolAndGivesEveryArrayBack()
    {
        var pool = StripedArrayPool<byte>.Create();
        using (var writer = new ArrayPoolBufferWriter<byte>(pool, 256))
        {
            using (var json = new Utf8JsonWriter(writer))
            {
                json.WriteStartArray();
                for (int i = 0; i < 20_000; i++)
                {
                    json.WriteStartObject();
                    json.WriteNumber("id", i);
                    json.WriteString("name", $"item {i}");
                    json.WriteEndObject();
                }

                json.WriteEndArray();
            }

            using JsonDocument document = JsonDocument.Parse(writer.WrittenMemory);
            Assert.Equal(20_000, document.RootElement.GetArrayLength());
            Assert.Equal("item 19999", document.RootElement[19_999].GetProperty("name").GetString());
        }

        PoolStatistics stats = pool.GetStatistics();
        Assert.True(stats.Allocated > 1, stats.ToString());
        Assert.Equal(0, stats.Outstanding);
        Assert.True(stats.IsConserved, stats.ToString());
    }

    private static Order[] MakeOrders(int count)
    {
        var random = new Random(3);
        return Enumerable.Range(0, count)
            .Select(i => new Order(
                i,
                $"customer-{random.Next(1000)} \u00e9\u4e2d",
                Math.Round(random.NextDouble() * 1000, 2),
                Enumerable.Range(0, random.Next(0, 8)).Select(j => $"sku-{j}-{random.Next()}").ToList(),
                new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero).AddMinutes(i)))
            .ToArray();
    }
}
