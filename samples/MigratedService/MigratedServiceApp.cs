using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using OpenTelemetry.Metrics;

namespace NativePool.Samples.MigratedService;

/// <summary>
/// A minimal-API service after its move to NativePool: its pools come from the container, shaped by the
/// <c>NativePool</c> section of appsettings.json, and the <c>NativePool</c> meter is exported with OpenTelemetry.
/// </summary>
internal static class MigratedServiceApp
{
    /// <summary>The key of the keyed <see cref="StripedArrayPool{T}"/> of <see cref="char"/> that decodes report bodies.</summary>
    public const string TextPoolKey = "text";

    /// <summary>Builds the app: POST /digest, POST /report and GET /metrics (Prometheus).</summary>
    /// <param name="args">The command line (for example <c>--urls http://127.0.0.1:0</c>, <c>--contentRoot</c>).</param>
    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder = WebApplication.CreateBuilder(args);
        IConfigurationSection pools = builder.Configuration.GetSection("NativePool");

        // Before: the framework's DefaultObjectPoolProvider. After: every ObjectPoolProvider consumer (this app's
        // StringBuilder pool, and the framework's wherever it uses one) gets striped pools shaped by NativePool:ObjectPools.
        builder.Services.AddStripedObjectPools(pools.GetSection("ObjectPools"));

        // Builders that grew past 64 Ki chars (a report of a few thousand SKUs) are dropped rather than kept.
        builder.Services.AddSingleton(static services =>
            services.GetRequiredService<ObjectPoolProvider>().CreateStringBuilderPool(initialCapacity: 1024, maximumRetainedCapacity: 64 * 1024));

        // Before: services.AddPooled<ReportBuilder>() with its Capacity from ConfigurePools(section).
        // After: the same service, pooled by a StripedObjectPool<ReportBuilder> (also resolved as ObjectPool<ReportBuilder>).
        builder.Services.AddStripedPooled<ReportBuilder>(pools.GetSection("PooledServices:ReportBuilder"));

        // Before: a static ArrayPool<char>.Create(maxArrayLength, maxArraysPerBucket). After: a keyed pool from configuration.
        builder.Services.AddStripedArrayPool<char>(TextPoolKey, pools.GetSection($"ArrayPools:{TextPoolKey}"));

        // Before: services.AddSingleton(new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options { … })).
        // After: a PooledStreamManager whose options (BlockSize, MaximumBufferSize, MaximumStreamCapacity, …) are configuration.
        builder.Services.AddPooledStreamManager(pools.GetSection("Streams"));

        // The pools' statistics as OpenTelemetry metrics, scraped from GET /metrics.
        builder.Services.AddOpenTelemetry().WithMetrics(static metrics => metrics
            .AddMeter(NativePoolMetrics.MeterName)
            .AddPrometheusExporter());

        WebApplication app = builder.Build();
        app.MapPost("/digest", DigestEndpoint.HandleAsync);
        app.MapPost("/report", ReportEndpoint.HandleAsync);
        app.MapPrometheusScrapingEndpoint();
        return app;
    }
}
