using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// The Microsoft.Extensions conventions: registration methods in the container's namespace, options bound from
/// configuration through <see cref="IOptions{TOptions}"/>, and a static <c>Create</c> like <see cref="Microsoft.Extensions.ObjectPool.ObjectPool.Create{T}"/>.
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
    public void AnOutOfRangeConfiguredValueThrowsWhenTheProviderIsResolved()
    {
        var services = new ServiceCollection();
        services.AddStripedObjectPools(Configuration(("MaximumRetained", "0")));
        using ServiceProvider container = services.BuildServiceProvider();

        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => container.GetRequiredService<ObjectPoolProvider>());
        Assert.Equal(nameof(StripedObjectPoolOptions.MaximumRetained), exception.ParamName);
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
