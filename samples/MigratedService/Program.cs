using Microsoft.AspNetCore.Builder;
using NativePool.Samples.MigratedService;

// Usage: dotnet run --project samples/MigratedService [--urls http://localhost:5000]
WebApplication app = MigratedServiceApp.Build(args);
await app.RunAsync().ConfigureAwait(false);
