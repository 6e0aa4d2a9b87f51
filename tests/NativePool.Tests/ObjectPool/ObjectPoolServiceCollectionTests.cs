using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.ObjectPool;

/// <summary>Registration with a real <see cref="ServiceCollection"/>: the provider replacement and <c>AddStripedPooled</c>.</summary>
public sealed class ObjectPoolServiceCollectionTests
{
    [Fact]
    public void AddStripedObjectPoolsReplacesTheRegisteredProvider()
    {
        var services = new ServiceCollection();
        services.AddSingleton<ObjectPoolProvider, DefaultObjectPoolProvider>();

        services.AddStripedObjectPools(static provider => provider.MaximumRetained = 16);
        services.TryAddSingleton<ObjectPoolProvider, DefaultObjectPoolProvider>();
        using ServiceProvider container = services.BuildServiceProvider();

        ObjectPoolProvider resolved = container.GetRequiredService<ObjectPoolProvider>();
        StripedObjectPoolProvider ours = Assert.IsType<StripedObjectPoolProvider>(resolved);
        Assert.Same(ours, container.GetRequiredService<StripedObjectPoolProvider>());
        Assert.Equal(16, ours.MaximumRetained);
        Assert.Single(container.GetServices<ObjectPoolProvider>());

        StripedObjectPool<Thing> pool = Assert.IsType<StripedObjectPool<Thing>>(resolved.Create<Thing>());
        Assert.Equal(16, pool.MaximumRetained);
        Assert.False(pool.DisposesItems);
        Assert.True(Assert.IsType<StripedObjectPool<DisposableThing>>(resolved.Create<DisposableThing>()).DisposesItems);
    }

    [Fact]
    public void ExistingCodeThatCreatesPoolsFromTheProviderGetsStripedPools()
    {
        var services = new ServiceCollection();
        services.AddStripedObjectPools();
        services.AddSingleton(static sp => sp.GetRequiredService<ObjectPoolProvider>().CreateStringBuilderPool());
        using ServiceProvider container = services.BuildServiceProvider();

        ObjectPool<System.Text.StringBuilder> pool = container.GetRequiredService<ObjectPool<System.Text.StringBuilder>>();
        System.Text.StringBuilder builder = pool.Get().Append('x');
        pool.Return(builder);

        Assert.IsType<StripedObjectPool<System.Text.StringBuilder>>(pool);
        Assert.Same(builder, pool.Get());
        Assert.Equal(0, builder.Length);
    }

    [Fact]
    public void AddStripedPooledRegistersAPoolWhoseInstancesComeFromTheContainer()
    {
        var services = new ServiceCollection();
        services.AddSingleton<GreetingDependency>();
        services.AddStripedPooled<IGreeter, Greeter>(static options => options.MaximumRetained = 4);
        using ServiceProvider container = services.BuildServiceProvider();

        ObjectPool<IGreeter> pool = container.GetRequiredService<ObjectPool<IGreeter>>();
        StripedObjectPool<IGreeter> striped = container.GetRequiredService<StripedObjectPool<IGreeter>>();
        IGreeter greeter = pool.Get();
        pool.Return(greeter);

        Assert.Same(striped, pool);
        Assert.Equal(4, striped.MaximumRetained);
        #pragma warning disable NP0002 // The test checks the object the pool was given back.
        Assert.Same(container.GetRequiredService<GreetingDependency>(), Assert.IsType<Greeter>(greeter).Dependency);
        #pragma warning restore NP0002
        Assert.Same(greeter, pool.Get());
    }

    [Fact]
    public void AddStripedPooledUsesMicrosoftsDefaultCapacityAndHonoursIResettable()
    {
        var services = new ServiceCollection();
        services.AddStripedPooled<ResettableThing>();
        using ServiceProvider container = services.BuildServiceProvider();

        var pool = (StripedObjectPool<ResettableThing>)container.GetRequiredService<ObjectPool<ResettableThing>>();
        ResettableThing item = pool.Get();
        item.Dirty = true;
        pool.Return(item);

        Assert.Equal(1024, pool.MaximumRetained);
        #pragma warning disable NP0002 // The test checks what the return did to the object.
        Assert.False(item.Dirty);
        #pragma warning restore NP0002
    }

    [Fact]
    public void DisposingTheContainerDisposesPooledDisposableInstances()
    {
        var services = new ServiceCollection();
        services.AddStripedPooled<DisposableThing>();
        DisposableThing item;
        DisposableThing outstanding;
        using (ServiceProvider container = services.BuildServiceProvider())
        {
            ObjectPool<DisposableThing> pool = container.GetRequiredService<ObjectPool<DisposableThing>>();
            item = pool.Get();
            #pragma warning disable NP0003 // Kept outstanding: the test checks the container leaves it alone.
            outstanding = pool.Get();
            #pragma warning restore NP0003
            pool.Return(item);
            Assert.True(Assert.IsType<StripedObjectPool<DisposableThing>>(pool).DisposesItems);
        }

        #pragma warning disable NP0002 // The test checks what disposing the container did to the object.
        Assert.Equal(1, item.DisposeCount);
        #pragma warning restore NP0002
        Assert.False(outstanding.IsDisposed);
    }

    [Fact]
    public void AddStripedPooledReadsTheServicesNamedOptionsWhenThePoolIsFirstResolved()
    {
        int runs = 0;
        var services = new ServiceCollection();
        services.AddStripedPooled<Thing>(options =>
        {
            runs++;
            options.MaximumRetained = 8;
        });
        services.PostConfigure<PooledServiceOptions>(typeof(Thing).FullName, static options => options.MaximumRetained *= 2);
        using ServiceProvider container = services.BuildServiceProvider();

        Assert.Equal(0, runs);
        StripedObjectPool<Thing> pool = container.GetRequiredService<StripedObjectPool<Thing>>();
        container.GetRequiredService<ObjectPool<Thing>>();

        Assert.Equal(16, pool.MaximumRetained);
        Assert.Equal(1, runs);
    }

    [Fact]
    public void AnOutOfRangeBoundFailsOptionsValidationNamingTheServiceWhenThePoolIsFirstResolved()
    {
        var services = new ServiceCollection();
        services.AddStripedPooled<Thing>(static options => options.MaximumRetained = -1);
        using ServiceProvider container = services.BuildServiceProvider();

        OptionsValidationException exception = Assert.Throws<OptionsValidationException>(() => container.GetRequiredService<ObjectPool<Thing>>());

        Assert.Equal(typeof(Thing).FullName, exception.OptionsName);
        Assert.StartsWith(
            $"PooledServiceOptions.MaximumRetained of '{typeof(Thing).FullName}' is -1: MaximumRetained must be from 1 to ",
            exception.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public async Task AnOutOfRangeBoundFailsTheHostsStart()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Services.AddStripedPooled<Thing>();
        builder.Services.Configure<PooledServiceOptions>(typeof(Thing).FullName, static options => options.MaximumRetained = 0);
        using IHost host = builder.Build();

        OptionsValidationException exception = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal(typeof(Thing).FullName, exception.OptionsName);
    }

    /// <summary>A pooled service.</summary>
    public interface IGreeter
    {
        public string Greet();
    }

    /// <summary>A singleton the pooled service depends on.</summary>
    public sealed class GreetingDependency
    {
        public string Text { get; } = "hello";
    }

    /// <summary>The pooled implementation, constructed by the container's activator.</summary>
    public sealed class Greeter(GreetingDependency dependency) : IGreeter
    {
        public GreetingDependency Dependency { get; } = dependency;

        public string Greet() => Dependency.Text;
    }
}
