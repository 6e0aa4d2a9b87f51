using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Http;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using NativePool.AspNetCore;
using NativePool.Samples.KestrelEcho;

namespace NativePool.IntegrationTests;

/// <summary>
/// NativePool.AspNetCore with a real Kestrel on 127.0.0.1:0: the registration replaces Kestrel's factory, concurrent
/// echoes come back intact, Kestrel's <c>aspnetcore.memory_pool.*</c> instruments report the striped pools, and the
/// pools balance once the server has stopped.
/// </summary>
public sealed class StripedKestrelMemoryPoolTests
{
    private const string MemoryPoolMeter = "Microsoft.AspNetCore.MemoryPool";

    [Fact]
    public async Task KestrelUnderLoadEchoesIntactAndReportsItsMemoryPoolInstrumentsFromTheStripedPools()
    {
        await using WebApplication app = BuildEchoApp(static options => options.TrimmingEnabled = false);
        var factory = app.Services.GetRequiredService<StripedKestrelMemoryPoolFactory>();
        var meterFactory = app.Services.GetRequiredService<IMeterFactory>();
        using var recorder = new InstrumentRecorder(meterFactory);

        await app.StartAsync();
        long sent = await EchoClient.SendEchoesAsync(app.Urls.Single(), requests: 400, concurrency: 32, maxBody: 256 * 1024);

        Assert.True(sent > 0, "nothing was echoed");
        Assert.Same(factory, app.Services.GetRequiredService<IMemoryPoolFactory<byte>>());
        Assert.True(factory.PoolCount > 0, "Kestrel never asked the factory for a pool.");
        Assert.Equal(StripedKestrelMemoryPoolFactory.DefaultPoolName, factory.PoolName);

        Dictionary<string, long> during = recorder.Collect();
        PoolStatistics statistics = factory.GetStatistics();
        Assert.True(during.GetValueOrDefault("aspnetcore.memory_pool.allocated") > 0, Describe(during, statistics));
        Assert.True(during.GetValueOrDefault("aspnetcore.memory_pool.pooled") > 0, Describe(during, statistics));
        Assert.True(during.ContainsKey("aspnetcore.memory_pool.evicted"), Describe(during, statistics));
        Assert.False(during.ContainsKey("aspnetcore.memory_pool.rented"), "rents are not counted, so the instrument must not be there");
        Assert.Equal(statistics.Allocated * StripedKestrelMemoryPoolFactory.DefaultMaximumBufferLength, during["aspnetcore.memory_pool.allocated"]);

        await app.StopAsync();

        // Kestrel disposed its pools: every buffer came back and was released.
        PoolStatistics after = factory.GetStatistics();
        Assert.True(after.IsConserved, after.ToString());
        Assert.Equal(0, after.Outstanding);
        Assert.Equal(0, after.Pooled);
        Dictionary<string, long> stopped = recorder.Collect();
        Assert.Equal(0, stopped["aspnetcore.memory_pool.pooled"]);
        Assert.Equal(stopped["aspnetcore.memory_pool.allocated"], stopped["aspnetcore.memory_pool.evicted"]);
        Assert.Equal(0, recorder.PushedMeasurements);
    }

    [Fact]
    public void TheRegistrationReplacesAnEarlierFactoryAndSurvivesALaterTryAdd()
    {
        var services = new ServiceCollection();
        services.AddSingleton<IMemoryPoolFactory<byte>, OtherFactory>();
        services.AddStripedKestrelMemoryPool(static options => options.Name = "edge");
        services.TryAddSingleton<IMemoryPoolFactory<byte>, OtherFactory>();
        using ServiceProvider provider = services.BuildServiceProvider();

        var factory = Assert.IsType<StripedKestrelMemoryPoolFactory>(provider.GetRequiredService<IMemoryPoolFactory<byte>>());
        Assert.Single(provider.GetServices<IMemoryPoolFactory<byte>>());
        Assert.Equal("edge", factory.PoolName);
        using MemoryPool<byte> pool = factory.Create(new MemoryPoolOptions { Owner = "test" });
        Assert.Equal(StripedKestrelMemoryPoolFactory.DefaultMaximumBufferLength, pool.MaxBufferSize);
    }

    [Fact]
    public void TheRegisteredPoolsHandOutTheirPooledOwnersAsKestrelsOwnPoolDoesUnlessToldOtherwise()
    {
        foreach (bool reuse in new[] { true, false })
        {
            var services = new ServiceCollection();
            services.AddStripedKestrelMemoryPool(options =>
            {
                Assert.True(options.ReuseOwners);
                options.ReuseOwners = reuse;
            });
            using ServiceProvider provider = services.BuildServiceProvider();
            using MemoryPool<byte> pool = provider.GetRequiredService<IMemoryPoolFactory<byte>>().Create();

            // With reuse, the owner a rent hands out is the pooled one, so the next rent after its dispose gets it back.
            IMemoryOwner<byte> first = pool.Rent();
            first.Dispose();
            IMemoryOwner<byte> second = pool.Rent();
            Assert.Equal(reuse, ReferenceEquals(first, second));
            second.Dispose();
        }
    }

    [Fact]
    public void RegisteringOnNoServicesThrows() =>
        Assert.Equal("services", Assert.Throws<ArgumentNullException>(static () => StripedKestrelMemoryPoolServiceCollectionExtensions.AddStripedKestrelMemoryPool(null!)).ParamName);

    [Fact]
    public void ADisposedFactoryDisposesItsPoolsAndMakesNoMore()
    {
        var factory = new StripedKestrelMemoryPoolFactory();
        MemoryPool<byte> pool = factory.Create();
        IMemoryOwner<byte> owner = pool.Rent();
        factory.Dispose();

        Assert.Throws<ObjectDisposedException>(() => pool.Rent());
        Assert.Throws<ObjectDisposedException>(() => factory.Create());
        owner.Dispose();
        Assert.Equal(0, factory.GetStatistics().Outstanding);
    }

    private static WebApplication BuildEchoApp(Action<StripedMemoryPoolOptions> configure) =>
        EchoApp.Build(services => services.AddStripedKestrelMemoryPool(configure));

    private static string Describe(Dictionary<string, long> values, PoolStatistics statistics) =>
        $"{string.Join(", ", values.Select(static pair => $"{pair.Key}={pair.Value}"))}; pools: {statistics}";

    /// <summary>Reads the memory-pool meter of one application (its meter factory), instrument by instrument, tags summed.</summary>
    private sealed class InstrumentRecorder : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly Dictionary<string, long> _values = new(StringComparer.Ordinal);

        public InstrumentRecorder(IMeterFactory meterFactory)
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == MemoryPoolMeter && ReferenceEquals(instrument.Meter.Scope, meterFactory))
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((instrument, value, tags, state) =>
            {
                lock (_values)
                {
                    _values[instrument.Name] = _values.GetValueOrDefault(instrument.Name) + value;
                    if (!instrument.IsObservable)
                    {
                        PushedMeasurements++;
                    }
                }
            });
            _listener.Start();
        }

        /// <summary>Measurements from Kestrel's own (push) instruments of the same names, which see no pool of theirs.</summary>
        public int PushedMeasurements { get; private set; }

        public Dictionary<string, long> Collect()
        {
            lock (_values)
            {
                _values.Clear();
            }

            _listener.RecordObservableInstruments();
            lock (_values)
            {
                return new Dictionary<string, long>(_values, StringComparer.Ordinal);
            }
        }

        public void Dispose() => _listener.Dispose();
    }

    private sealed class OtherFactory : IMemoryPoolFactory<byte>
    {
        public MemoryPool<byte> Create(MemoryPoolOptions? options = null) => MemoryPool<byte>.Shared;
    }
}
