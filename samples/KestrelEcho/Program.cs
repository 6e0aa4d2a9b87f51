using System;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Hosting;
using NativePool.Samples.KestrelEcho;

// Usage: KestrelEcho [port] [default]   (port 0 picks a free one; "default" keeps Kestrel's own pool, for comparison)
int port = args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 5080;
bool ours = !(args.Length > 1 && args[1] == "default");
var factory = ours ? new StripedMemoryPoolFactory() : null;
WebApplication app = EchoApp.Build(factory, port);
await app.StartAsync().ConfigureAwait(false);
long allocatedAtStart = GC.GetTotalAllocatedBytes(precise: true);
Console.WriteLine($"Echo on {string.Join(", ", app.Urls)} with {(ours ? "StripedMemoryPool<byte>.Shared" : "Kestrel's default pool")}; Ctrl+C stops.");
await app.WaitForShutdownAsync().ConfigureAwait(false);
Console.WriteLine($"Allocated while serving: {GC.GetTotalAllocatedBytes(precise: true) - allocatedAtStart} B");
if (factory is not null)
{
    Console.WriteLine($"Pool: {factory.GetStatistics()}");
}
