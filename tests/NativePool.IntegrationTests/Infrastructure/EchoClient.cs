using System.Net.Http;

namespace NativePool.IntegrationTests;

/// <summary>The client side of the Kestrel echo tests.</summary>
internal static class EchoClient
{
    /// <summary>
    /// Sends <paramref name="requests"/> POSTs of random bodies (every tenth empty, the others up to
    /// <paramref name="maxBody"/> bytes) to <c>/echo</c>, <paramref name="concurrency"/> at a time, and checks that each
    /// comes back byte for byte.
    /// </summary>
    /// <returns>The body bytes sent.</returns>
    public static async Task<long> SendEchoesAsync(string url, int requests, int concurrency, int maxBody)
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
