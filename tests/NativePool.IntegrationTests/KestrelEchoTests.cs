using System.Net.Http;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using NativePool.AspNetCore;
using NativePool.Samples.KestrelEcho;

namespace NativePool.IntegrationTests;

/// <summary>
/// Kestrel bound to 127.0.0.1:0 with its transport memory from our pool (through .NET 10's
/// <c>Microsoft.AspNetCore.Connections.IMemoryPoolFactory&lt;byte&gt;</c>): concurrent echo requests with random bodies come
/// back byte for byte, and the pool's counters show the traffic went through it.
/// </summary>
public sealed class KestrelEchoTests
{
    [Fact]
    public async Task ConcurrentEchoRequestsComeBackIntactThroughIndependentPools()
    {
        using var factory = new StripedKestrelMemoryPoolFactory(new StripedMemoryPoolOptions { TrimmingEnabled = false }, meterFactory: null);
        await using WebApplication app = EchoApp.Build(factory);
        await app.StartAsync();
        string url = app.Urls.Single();

        long sent = await SendEchoesAsync(url, requests: 200, concurrency: 16, maxBody: 256 * 1024);

        Assert.NotEqual(0, factory.PoolCount);
        PoolStatistics during = factory.GetStatistics();
        // Rents served by a thread's slot are not counted; buffers the pool created or now holds prove Kestrel used it.
        Assert.True(sent > 0, $"nothing was echoed: {during}");
        Assert.True(during.Allocated > 0 && during.Allocated + during.Pooled > 0, $"Kestrel never used the pool: {during}");

        // Kestrel disposed the pools it was given: every buffer came back and was released.
        await app.StopAsync();
        PoolStatistics after = factory.GetStatistics();
        Assert.Equal(0, after.Outstanding);
        Assert.Equal(0, after.Pooled);
    }

    [Fact]
    public async Task EchoRequestsComeBackIntactThroughTheRegisteredFactory()
    {
        await using WebApplication app = EchoApp.Build(static services => services.AddStripedKestrelMemoryPool());
        await app.StartAsync();

        await SendEchoesAsync(app.Urls.Single(), requests: 50, concurrency: 8, maxBody: 64 * 1024);

        StripedKestrelMemoryPoolFactory factory = app.Services.GetRequiredService<StripedKestrelMemoryPoolFactory>();
        PoolStatistics used = factory.GetStatistics();
        Assert.True(used.Allocated > 0, $"Kestrel never used the registered factory's pools: {used}");
        await app.StopAsync();
        Assert.Equal(0, factory.GetStatistics().Outstanding);
    }

    private static async Task<long> SendEchoesAsync(string url, int requests, int concurrency, int maxBody)
    {
        using var client = new HttpClient { BaseAddress = new Uri(url), Timeout = TimeSpan.FromSeconds(60) };
        long sent = 0;
        await Parallel.ForAsync(0, requests, new ParallelOptions { MaxDegreeOfParallelism = concurrency }, async (i, token) =>
        {
            var random = new Random(i);
            byte[] body = new byte[i % 10 == 0 ? 0 : random.Next(1, maxBody)];
            random.NextBytes(body);
            using var content = new ByteArrayContent(body);
            using HttpResponseMessage response = await client.PostAsync(new Uri("/echo", UriKind.Relative), content, token);
            response.EnsureSuccessStatusCode();
            byte[] echoed = await response.Content.ReadAsByteArrayAsync(token);
            Assert.Equal(body.Length, echoed.Length);
            int mismatch = body.AsSpan().CommonPrefixLength(echoed);
            Assert.True(mismatch == body.Length, $"Request {i}: byte {mismatch} of {body.Length} differs.");

            // Interlocked: the requests run in parallel and all add to one total.
            Interlocked.Add(ref sent, body.Length);
        });
        return sent;
    }
}
