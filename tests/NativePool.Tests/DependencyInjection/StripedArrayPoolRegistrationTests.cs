using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.DependencyInjection;

/// <summary>
/// <c>AddStripedArrayPool</c>: a keyed singleton resolved as <see cref="StripedArrayPool{T}"/> and as
/// <see cref="ArrayPool{T}"/>, shaped by the named <see cref="StripedArrayPoolOptions"/> of its key, validated when the
/// host starts or the pool is first resolved.
/// </summary>
public sealed class StripedArrayPoolRegistrationTests
{
    [Fact]
    public void ThePoolIsOneKeyedSingletonResolvedAsItselfAndAsAnArrayPool()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", static options => options.MaximumArrayLength = 4096);
        using ServiceProvider container = services.BuildServiceProvider(validateScopes: true);

        StripedArrayPool<byte> pool = container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");

        Assert.Same(pool, container.GetRequiredKeyedService<ArrayPool<byte>>("io"));
        Assert.Same(pool, container.GetRequiredKeyedService<StripedArrayPool<byte>>("io"));
        Assert.NotSame(StripedArrayPool<byte>.Shared, pool);
        Assert.Equal(4096, pool.MaximumArrayLength);
        Assert.Null(container.GetService<ArrayPool<byte>>());
        Assert.Null(container.GetKeyedService<ArrayPool<byte>>("other"));
    }

    [Fact]
    public void AConstructorGetsThePoolThroughFromKeyedServices()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io");
        services.AddSingleton<BufferUser>();
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Same(container.GetRequiredKeyedService<StripedArrayPool<byte>>("io"), container.GetRequiredService<BufferUser>().Pool);
    }

    [Fact]
    public void ThePoolIsNamedByItsKeyUnlessTheOptionsNameIt()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io");
        services.AddStripedArrayPool<byte>("wire", static options => options.Name = "wire-buffers");
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Equal("io", container.GetRequiredKeyedService<StripedArrayPool<byte>>("io").Name);
        Assert.Equal("wire-buffers", container.GetRequiredKeyedService<StripedArrayPool<byte>>("wire").Name);
        Assert.Null(container.GetRequiredService<IOptionsMonitor<StripedArrayPoolOptions>>().Get("io").Name);
    }

    [Fact]
    public void EachNameHasItsOwnPoolAndOptions()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("small", static options => options.MaximumArrayLength = 1024);
        services.AddStripedArrayPool<byte>("large", static options => options.MaximumArrayLength = 1 << 20);
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> small = container.GetRequiredKeyedService<StripedArrayPool<byte>>("small");
        StripedArrayPool<byte> large = container.GetRequiredKeyedService<StripedArrayPool<byte>>("large");

        Assert.NotSame(small, large);
        Assert.Equal((1024, 1 << 20), (small.MaximumArrayLength, large.MaximumArrayLength));
    }

    [Fact]
    public void NamedOptionsConfiguredAnywhereShapeThePoolOfThatName()
    {
        var services = new ServiceCollection();
        services.Configure<StripedArrayPoolOptions>("io", static options => options.MaximumArrayLength = 2048);
        services.AddStripedArrayPool<byte>("io", static options => options.StripeCount = 1);
        services.PostConfigure<StripedArrayPoolOptions>("io", static options => options.Guarded = true);
        services.Configure<StripedArrayPoolOptions>("other", static options => options.MaximumArrayLength = 64);
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> pool = container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");

        Assert.Equal((2048, 1, true), (pool.MaximumArrayLength, pool.StripeCount, pool.IsTracking));
    }

    [Fact]
    public void RegisteringANameAgainConfiguresTheSamePool()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", static options => options.MaximumArrayLength = 2048);
        services.AddStripedArrayPool<byte>("io", static options => options.StripeCount = 1);
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> pool = Assert.Single(container.GetKeyedServices<StripedArrayPool<byte>>("io"));

        Assert.Equal((2048, 1), (pool.MaximumArrayLength, pool.StripeCount));
        Assert.Single(services, static descriptor => descriptor.ServiceType == typeof(StripedArrayPool<byte>));
        Assert.Single(services, static descriptor => descriptor.ServiceType == typeof(ArrayPool<byte>));
    }

    [Fact]
    public void PoolsOfTwoElementTypesUnderOneNameShareTheirOptions()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", static options => options.MaximumArrayLength = 2048);
        services.AddStripedArrayPool<char>("io", static options => options.StripeCount = 1);
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> bytes = container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");
        StripedArrayPool<char> chars = container.GetRequiredKeyedService<StripedArrayPool<char>>("io");

        Assert.Equal((2048, 1), (bytes.MaximumArrayLength, bytes.StripeCount));
        Assert.Equal((2048, 1), (chars.MaximumArrayLength, chars.StripeCount));
    }

    [Fact]
    public void TheConfigureActionRunsOnceWhenThePoolIsFirstResolved()
    {
        int runs = 0;
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", _ => runs++);
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Equal(0, runs);
        container.GetRequiredKeyedService<ArrayPool<byte>>("io");
        container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");
        container.GetRequiredService<IOptionsMonitor<StripedArrayPoolOptions>>().Get("io");
        Assert.Equal(1, runs);
    }

    [Fact]
    public void AnOptionOutOfRangeFailsOptionsValidationWhenThePoolIsFirstResolved()
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", static options => options.MaximumArrayLength = -5);
        using ServiceProvider container = services.BuildServiceProvider();

        OptionsValidationException exception = Assert.Throws<OptionsValidationException>(() => container.GetRequiredKeyedService<ArrayPool<byte>>("io"));

        Assert.Equal("io", exception.OptionsName);
        Assert.Equal(typeof(StripedArrayPoolOptions), exception.OptionsType);
        Assert.Equal("StripedArrayPoolOptions.MaximumArrayLength of 'io' is -5: MaximumArrayLength must be from 16 to 2^30 elements.", exception.Message);
    }

    [Fact]
    public async Task AnOptionOutOfRangeFailsTheHostsStart()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection([new("ArrayPools:io:MaximumArrayLength", "4096")]);
        builder.Services.AddStripedArrayPool<byte>("io", builder.Configuration.GetSection("ArrayPools:io"));
        builder.Services.PostConfigure<StripedArrayPoolOptions>("io", static options => options.DoubleReturnPolicy = (PoolMisusePolicy)9);
        using IHost host = builder.Build();

        OptionsValidationException exception = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal("io", exception.OptionsName);
        Assert.Contains("StripedArrayPoolOptions.DoubleReturnPolicy of 'io' is 9: ", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AHostWithGoodOptionsStartsAndItsPoolTakesThem()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection([new("ArrayPools:io:MaximumArrayLength", "4096"), new("ArrayPools:io:StripeCount", "1")]);
        builder.Services.AddStripedArrayPool<byte>("io", builder.Configuration.GetSection("ArrayPools:io"));
        using IHost host = builder.Build();

        await host.StartAsync();
        StripedArrayPool<byte> pool = host.Services.GetRequiredKeyedService<StripedArrayPool<byte>>("io");
        await host.StopAsync();

        Assert.Equal((4096, 1), (pool.MaximumArrayLength, pool.StripeCount));
    }

    [Fact]
    public void ABadArgumentThrowsAndRegistersNothing()
    {
        var services = new ServiceCollection();

        Assert.Equal("services", Assert.Throws<ArgumentNullException>(static () => StripedArrayPoolServiceCollectionExtensions.AddStripedArrayPool<byte>(null!, "io")).ParamName);
        Assert.Equal("name", Assert.Throws<ArgumentNullException>(() => services.AddStripedArrayPool<byte>(null!)).ParamName);
        Assert.Equal("name", Assert.Throws<ArgumentException>(() => services.AddStripedArrayPool<byte>(string.Empty)).ParamName);
        Assert.Equal("name", Assert.Throws<ArgumentException>(() => services.AddStripedArrayPool<byte>(string.Empty, new ConfigurationBuilder().Build())).ParamName);
        Assert.Empty(services);
    }

    /// <summary>A service that takes the keyed pool in its constructor.</summary>
    internal sealed class BufferUser([FromKeyedServices("io")] ArrayPool<byte> pool)
    {
        public ArrayPool<byte> Pool { get; } = pool;
    }
}
