using System;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace NativePool.Samples.KestrelEcho;

/// <summary>An echo server on Kestrel whose transport memory comes from the pool a registration puts in place (<c>AddStripedKestrelMemoryPool</c>).</summary>
internal static class EchoApp
{
    /// <summary>Builds the app: POST /echo answers with the request body; port 0 picks a free port.</summary>
    /// <param name="registerPool">Registers the transport's memory pool factory, or null for Kestrel's own.</param>
    /// <param name="port">The port on the loopback address.</param>
    public static WebApplication Build(Action<IServiceCollection>? registerPool, int port = 0)
    {
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));

        // After Kestrel's own registration: the socket transport resolves the last IMemoryPoolFactory<byte>.
        registerPool?.Invoke(builder.Services);

        WebApplication app = builder.Build();
        app.MapPost("/echo", static async (HttpContext context) =>
        {
            context.Response.ContentType = "application/octet-stream";
            context.Response.ContentLength = context.Request.ContentLength;
            await context.Request.BodyReader.CopyToAsync(context.Response.BodyWriter).ConfigureAwait(false);
        });
        return app;
    }
}
