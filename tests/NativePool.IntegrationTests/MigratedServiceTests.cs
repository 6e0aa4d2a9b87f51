using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using NativePool.Samples.MigratedService;
using NativePool.Tests;
using static System.FormattableString;

namespace NativePool.IntegrationTests;

/// <summary>
/// The migration sample (samples/MigratedService) on a real Kestrel at 127.0.0.1:0, configured by its own
/// appsettings.json: every endpoint's answer against one computed here, the pools it registers doing the work and
/// balanced once it has stopped, and their readings on its OpenTelemetry Prometheus endpoint.
/// </summary>
public sealed class MigratedServiceTests
{
    [Fact]
    public async Task TheMigratedServiceAnswersFromItsConfiguredPoolsAndExportsTheirReadingsThroughOpenTelemetry()
    {
        string contentRoot = Path.Combine(RepositoryRoot.Find(), "samples", "MigratedService");
        await using WebApplication app = MigratedServiceApp.Build(
            ["--urls", "http://127.0.0.1:0", "--contentRoot", contentRoot, "--Logging:LogLevel:Default", "Warning"]);
        await app.StartAsync();
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.Single()) };

        // POST /digest: the length and SHA-256 of 300 000 bytes, read in pieces through StripedArrayPool<byte>.Shared.
        byte[] payload = new byte[300_000];
        new Random(payload.Length).NextBytes(payload);
        using (HttpResponseMessage response = await client.PostAsync("/digest", new ByteArrayContent(payload)))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            using JsonDocument digest = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            Assert.Equal(payload.Length, digest.RootElement.GetProperty("length").GetInt64());
            Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(payload)), digest.RootElement.GetProperty("sha256").GetString());
        }

        // POST /report: 12 000 lines over 2 000 SKUs, so the CSV spans several of the configured 16 KiB blocks.
        var random = new Random(12_000);
        (string Sku, int Quantity, decimal Price)[] lines =
            [.. Enumerable.Range(0, 12_000).Select(_ => ($"SKU-{random.Next(2_000):D4}", random.Next(1, 20), random.Next(1, 100_000) / 100m))];
        string request = string.Concat(lines.Select(static line => Invariant($"{line.Sku},{line.Quantity},{line.Price}\r\n")));
        string expected = "sku,quantity,amount\n"
            + string.Concat(lines.GroupBy(static line => line.Sku).OrderBy(static group => group.Key, StringComparer.Ordinal)
                .Select(static group => Invariant($"{group.Key},{group.Sum(static line => line.Quantity)},{group.Sum(static line => line.Quantity * line.Price):F2}\n")))
            + Invariant($"total,{lines.Sum(static line => line.Quantity)},{lines.Sum(static line => line.Quantity * line.Price):F2}\n");
        Assert.True(Encoding.UTF8.GetByteCount(request) < ReportEndpoint.MaximumBodyLength);
        using (HttpResponseMessage response = await client.PostAsync("/report", new StringContent(request, Encoding.UTF8)))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal(Encoding.UTF8.GetByteCount(expected), response.Content.Headers.ContentLength);
            Assert.Equal(expected, await response.Content.ReadAsStringAsync());
        }

        // A line that is not an order line answers 400 naming it; a body over the limit answers 413.
        using (HttpResponseMessage response = await client.PostAsync("/report", new StringContent("SKU-1,2,9.99\nSKU-2,two,9.99\n", Encoding.UTF8)))
        {
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Contains("Line 2", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }

        using (HttpResponseMessage response = await client.PostAsync("/report", new StringContent(new string('A', ReportEndpoint.MaximumBodyLength + 1), Encoding.UTF8)))
        {
            Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
        }

        // GET /metrics: OpenTelemetry's Prometheus exposition of the NativePool meter.
        string metrics = await client.GetStringAsync("/metrics");

        // Stopping waits for the requests in flight: a stream is disposed after the body it buffered has been sent.
        await app.StopAsync();

        var textPool = app.Services.GetRequiredKeyedService<StripedArrayPool<char>>(MigratedServiceApp.TextPoolKey);
        var reports = app.Services.GetRequiredService<StripedObjectPool<ReportBuilder>>();
        var stringBuilders = Assert.IsType<StripedObjectPool<StringBuilder>>(app.Services.GetRequiredService<ObjectPool<StringBuilder>>());
        var streams = app.Services.GetRequiredService<PooledStreamManager>();
        Assert.Same(reports, app.Services.GetRequiredService<ObjectPool<ReportBuilder>>());
        Assert.Equal("responses", streams.Name);
        Assert.Equal(16384, streams.BlockSize);

        // Each pool made what the requests needed, and every array, instance, builder and block came back.
        foreach ((string name, PoolStatistics statistics) in new[]
        {
            (textPool.Name, textPool.GetStatistics()),
            (reports.Name, reports.GetStatistics()),
            (stringBuilders.Name, stringBuilders.GetStatistics()),
            (streams.Name, streams.GetStatistics()),
        })
        {
            Assert.True(statistics.Allocated > 0, $"{name} was not used: {statistics}");
            Assert.True(statistics.Outstanding == 0, $"{name} did not get everything back: {statistics}");
            Assert.Equal(statistics.Allocated, ReadAllocated(metrics, name));
        }

        Assert.True(streams.GetStatistics().Allocated >= (Encoding.UTF8.GetByteCount(expected) + streams.BlockSize - 1) / streams.BlockSize);
        Assert.Equal(0, streams.BlockBytesInUse);
        Assert.Equal(0, streams.BufferBytesInUse);
    }

    /// <summary>The value of the one <c>nativepool_allocated_total</c> series of the pool named <paramref name="pool"/>.</summary>
    private static long ReadAllocated(string metrics, string pool)
    {
        MatchCollection series = Regex.Matches(
            metrics,
            $@"^nativepool_allocated_total\{{[^}}]*nativepool_pool_name=""{Regex.Escape(pool)}""[^}}]*\}} (\d+)",
            RegexOptions.Multiline);
        Assert.True(series.Count == 1, $"{series.Count} series of nativepool.allocated for '{pool}' in:\n{metrics}");
        return long.Parse(series[0].Groups[1].Value, CultureInfo.InvariantCulture);
    }
}
