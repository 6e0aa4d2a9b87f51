using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace NativePool.Samples.KestrelEcho;

/// <summary>An echo server on Kestrel whose transport memory comes from a <see cref="StripedMemoryPoolFactory"/>.</summary>
internal static class EchoApp
{
    /// <summary>Builds the app: POST /echo answers with the request body; port 0 picks a free port.</summary>
    public static WebApplication Build(StripedMemoryPoolFactory? poolFactory, int port = 0)
    {
        WebApplicationBuilder builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
        if (poolFactory is not null)
        {
            // Registered after Kestrel's own: the socket transport resolves the last IMemoryPoolFactory<byte>.
            builder.Services.AddSingleton<IMemoryPoolFactory<byte>>(poolFactory);
        }

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
