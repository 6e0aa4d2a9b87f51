using System;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NativePool.AspNetCore;
using NativePool.Samples.KestrelEcho;

// Usage: KestrelEcho [port] [default]   (port 0 picks a free one; "default" keeps Kestrel's own pool, for comparison)
int port = args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 5080;
bool ours = !(args.Length > 1 && args[1] == "default");
WebApplication app = EchoApp.Build(ours ? static services => services.AddStripedKestrelMemoryPool() : null, port);
await app.StartAsync().ConfigureAwait(false);
long allocatedAtStart = GC.GetTotalAllocatedBytes(precise: true);
Console.WriteLine($"Echo on {string.Join(", ", app.Urls)} with {(ours ? "AddStripedKestrelMemoryPool" : "Kestrel's default pool")}; Ctrl+C stops.");
await app.WaitForShutdownAsync().ConfigureAwait(false);
Console.WriteLine($"Allocated while serving: {GC.GetTotalAllocatedBytes(precise: true) - allocatedAtStart} B");
if (ours)
{
    Console.WriteLine($"Pool: {app.Services.GetRequiredService<StripedKestrelMemoryPoolFactory>().GetStatistics()}");
}
