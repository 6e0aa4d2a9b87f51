using System.Threading.Tasks;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// The Microsoft.Extensions conventions: registration methods in the container's namespace, options bound from
/// configuration through <see cref="IOptions{TOptions}"/> (a bad configured value failing at registration, options made
/// bad afterwards failing when a host starts), and a static <c>Create</c> like <see cref="Microsoft.Extensions.ObjectPool.ObjectPool.Create{T}"/>.
/// </summary>
public sealed class ObjectPoolConventionTests
{
    [Fact]
    public void TheRegistrationMethodsLiveInTheContainersNamespace()
    {
        Assert.Equal("Microsoft.Extensions.DependencyInjection", typeof(StripedObjectPoolServiceCollectionExtensions).Namespace);
    }

    [Fact]
    public void ProviderPoolsTakeTheirOptionsFromTheConfigurationSection()
    {
        IConfiguration configuration = Configuration(("ObjectPools:MaximumRetained", "5"), ("ObjectPools:Guarded", "true"));
        var services = new ServiceCollection();

        services.AddStripedObjectPools(configuration.GetSection("ObjectPools"));
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Equal(5, container.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value.MaximumRetained);
        StripedObjectPool<Thing> pool = Assert.IsType<StripedObjectPool<Thing>>(container.GetRequiredService<ObjectPoolProvider>().Create<Thing>());
        Assert.Equal(5, pool.MaximumRetained);
        // Only a guarded pool refuses an object it never handed out.
        Assert.Throws<InvalidOperationException>(() => pool.Return(new Thing()));
    }

    [Fact]
    public void LaterConfigureCallsApplyOnTopOfTheConfiguration()
    {
        var services = new ServiceCollection();
        services.AddStripedObjectPools(Configuration(("MaximumRetained", "5")));
        services.Configure<StripedObjectPoolOptions>(static options => options.MaximumRetained = 7);
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Equal(7, container.GetRequiredService<StripedObjectPoolProvider>().MaximumRetained);
    }

    [Fact]
    public void AMalformedValueFailsAtRegistration()
    {
        IConfiguration configuration = Configuration(("ObjectPools:MaximumRetained", "lots"));
        var services = new ServiceCollection();

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(
            () => services.AddStripedObjectPools(configuration.GetSection("ObjectPools")));

        Assert.Contains("'ObjectPools:MaximumRetained'", exception.Message, StringComparison.Ordinal);
        Assert.Contains("'lots'", exception.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void AnOutOfRangeValueFailsAtRegistration()
    {
        IConfiguration configuration = Configuration(("ObjectPools:MaximumRetained", "0"));
        var services = new ServiceCollection();

        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(
            () => services.AddStripedObjectPools(configuration.GetSection("ObjectPools")));

        Assert.Equal(nameof(StripedObjectPoolOptions.MaximumRetained), exception.ParamName);
        Assert.Equal("0", exception.ActualValue);
        Assert.Contains("The configuration value '0' at 'ObjectPools:MaximumRetained' is out of range: MaximumRetained must be from 1 to ", exception.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void AnOutOfRangeTimeSpanFailsAtRegistrationUnderItsOwnKey()
    {
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(
            () => new ServiceCollection().AddStripedObjectPools(Configuration(("MaximumRetained", "4"), ("TrimInterval", "2.00:00:00"))));

        Assert.Equal(nameof(StripedObjectPoolOptions.TrimInterval), exception.ParamName);
        Assert.Contains("'2.00:00:00' at 'TrimInterval'", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AGoodConfigurationStartsAHostWhosePoolsTakeIt()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection([new("ObjectPools:MaximumRetained", "6"), new("ObjectPools:TrimInterval", "00:00:05")]);
        builder.Services.AddStripedObjectPools(builder.Configuration.GetSection("ObjectPools"));
        using IHost host = builder.Build();

        await host.StartAsync();
        StripedObjectPool<Thing> pool = Assert.IsType<StripedObjectPool<Thing>>(host.Services.GetRequiredService<ObjectPoolProvider>().Create<Thing>());
        await host.StopAsync();

        Assert.Equal(6, pool.MaximumRetained);
        Assert.Equal(TimeSpan.FromSeconds(5), host.Services.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value.TrimInterval);
    }

    [Fact]
    public async Task AnOptionMadeOutOfRangeAfterTheConfigurationFailsWhenTheHostStarts()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection([new("ObjectPools:MaximumRetained", "6")]);
        builder.Services.AddStripedObjectPools(builder.Configuration.GetSection("ObjectPools"));
        builder.Services.PostConfigure<StripedObjectPoolOptions>(static options => options.MaximumRetained = 0);
        using IHost host = builder.Build();

        OptionsValidationException exception = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal(typeof(StripedObjectPoolOptions), exception.OptionsType);
        Assert.Contains("StripedObjectPoolOptions.MaximumRetained is 0: MaximumRetained must be from 1 to ", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void WithoutAHostAnOptionMadeOutOfRangeFailsWhenTheProviderIsResolved()
    {
        var services = new ServiceCollection();
        services.AddStripedObjectPools(Configuration(("MaximumRetained", "5")));
        services.Configure<StripedObjectPoolOptions>(static options => options.MaximumRetained = 0);
        using ServiceProvider container = services.BuildServiceProvider();

        OptionsValidationException exception = Assert.Throws<OptionsValidationException>(() => container.GetRequiredService<ObjectPoolProvider>());
        Assert.Contains("MaximumRetained", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddStripedObjectPoolsRejectsANullConfiguration()
    {
        Assert.Equal("configuration", Assert.Throws<ArgumentNullException>(() => new ServiceCollection().AddStripedObjectPools((IConfiguration)null!)).ParamName);
    }

    [Fact]
    public void CreateGivesAPoolThatHandsBackTheReturnedObject()
    {
        StripedObjectPool<Thing> pool = StripedObjectPool.Create<Thing>();
        Thing thing = pool.Get();
        pool.Return(thing);

        Assert.Same(thing, pool.Get());
        Assert.Equal(Environment.ProcessorCount * 2, pool.MaximumRetained);
        Assert.False(pool.DisposesItems);
    }

    [Fact]
    public void CreateOfADisposableTypeGivesADisposingPoolWithThePolicy()
    {
        var policy = new DefaultPooledObjectPolicy<DisposableThing>();

        using StripedObjectPool<DisposableThing> pool = StripedObjectPool.Create(policy);

        Assert.True(pool.DisposesItems);
    }

    private static IConfiguration Configuration(params (string Key, string Value)[] values) =>
        new ConfigurationBuilder().AddInMemoryCollection(values.Select(static pair => new KeyValuePair<string, string?>(pair.Key, pair.Value))).Build();
}
