using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.Parity;

/// <summary>
/// The ideas of Microsoft's object-pool dependency-injection tests, against our <c>AddStripedPooled</c> only: Microsoft's
/// helper package does not restore here, so there is no control. Its options are named options read through the
/// options pattern, as ours are, so the named-options tests assert what upstream's assert, on
/// <see cref="IOptionsMonitor{TOptions}"/> of <see cref="PooledServiceOptions"/> with upstream's names and numbers.
/// Upstream names and verdicts: docs/parity.md.
/// </summary>
public sealed class PooledServiceParityTests
{
    [Fact]
    public void NamedOptionsConfigureEachServicesPoolAndNoOther()
    {
        using ServiceProvider provider = new ServiceCollection()
            .Configure<PooledServiceOptions>(typeof(Service).FullName, static options => options.MaximumRetained = 2048)
            .Configure<PooledServiceOptions>(typeof(Dependency).FullName, static options => options.MaximumRetained = 4096)
            .AddSingleton<Dependency>()
            .AddStripedPooled<Service>()
            .BuildServiceProvider(validateScopes: true);

        IOptionsMonitor<PooledServiceOptions> options = provider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>();

        Assert.Equal(1024, options.CurrentValue.MaximumRetained);
        Assert.Equal(1024, options.Get(null).MaximumRetained);
        Assert.Equal(1024, options.Get(typeof(object).FullName).MaximumRetained);
        Assert.Equal(2048, options.Get(typeof(Service).FullName).MaximumRetained);
        Assert.Equal(4096, options.Get(typeof(Dependency).FullName).MaximumRetained);
        Assert.Equal(2048, provider.GetRequiredService<StripedObjectPool<Service>>().MaximumRetained);
    }

    [Fact]
    public void AnUnreadableBoundInConfigurationFailsAtRegistration()
    {
        IConfiguration configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new($"My:Pools:{typeof(Service).FullName}:MaximumRetained", "twenty!")])
            .Build();

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(
            () => new ServiceCollection().AddStripedPooled<Service>(configuration.GetSection($"My:Pools:{typeof(Service).FullName}")));

        Assert.StartsWith(
            $"The configuration value 'twenty!' at 'My:Pools:{typeof(Service).FullName}:MaximumRetained' cannot be read as its PooledServiceOptions value",
            exception.Message,
            StringComparison.Ordinal);
    }

    [Fact]
    public void BoundsFromConfigurationConfigureEachServicesOptions()
    {
        IConfiguration configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new("My:Pools:Service:MaximumRetained", "2048"), new("My:Pools:Dependency:MaximumRetained", "4096")])
            .Build();

        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<Service>(configuration.GetSection("My:Pools:Service"))
            .AddStripedPooled<Dependency>(configuration.GetSection("My:Pools:Dependency"))
            .BuildServiceProvider();
        IOptionsMonitor<PooledServiceOptions> options = provider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>();

        Assert.Equal(2048, options.Get(typeof(Service).FullName).MaximumRetained);
        Assert.Equal(4096, options.Get(typeof(Dependency).FullName).MaximumRetained);
        Assert.Equal(2048, provider.GetRequiredService<StripedObjectPool<Service>>().MaximumRetained);
    }

    [Fact]
    public void AddStripedPooledFromConfigurationRejectsANullSection()
    {
        Assert.Throws<ArgumentNullException>(static () => new ServiceCollection().AddStripedPooled<Service>((IConfiguration)null!));
    }

    [Fact]
    public void AddStripedPooledWithTheServiceTypeOnlyRegistersAPoolWithTheDefaultBound()
    {
        using ServiceProvider provider = new ServiceCollection().AddSingleton<Dependency>().AddStripedPooled<Service>().BuildServiceProvider(validateScopes: true);
        ObjectPool<Service> pool = provider.GetRequiredService<ObjectPool<Service>>();

        // Upstream's default capacity (PoolOptions.Capacity): 1024.
        Assert.Equal(1024, Assert.IsType<StripedObjectPool<Service>>(pool).MaximumRetained);
        Assert.NotNull(pool.Get());
    }

    [Fact]
    public void AddStripedPooledWithAnImplementationRegistersAPoolWithTheDefaultBound()
    {
        using ServiceProvider provider = new ServiceCollection().AddSingleton<Dependency>().AddStripedPooled<IService, Service>().BuildServiceProvider(validateScopes: true);
        ObjectPool<IService> pool = provider.GetRequiredService<ObjectPool<IService>>();

        // Upstream's default capacity (PoolOptions.Capacity): 1024.
        Assert.Equal(1024, Assert.IsType<StripedObjectPool<IService>>(pool).MaximumRetained);
        Assert.IsType<Service>(pool.Get());
    }

    [Fact]
    public void AddStripedPooledThrowsOnANullServiceCollection()
    {
        // As upstream's AddPooled, both forms.
        Assert.Throws<ArgumentNullException>("services", static () => StripedObjectPoolServiceCollectionExtensions.AddStripedPooled<Service>(null!));
        Assert.Throws<ArgumentNullException>("services", static () => StripedObjectPoolServiceCollectionExtensions.AddStripedPooled<IService, Service>(null!));
    }

    [Fact]
    public void TheLastAddStripedPooledOfAServiceWins()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<IService, Service>()
            .AddStripedPooled<IService, OtherService>()
            .BuildServiceProvider(validateScopes: true);
        Assert.IsType<OtherService>(provider.GetRequiredService<ObjectPool<IService>>().Get());
    }

    [Fact]
    public void AddStripedPooledWithTheServiceTypeOnlyTakesTheBound()
    {
        using ServiceProvider provider = new ServiceCollection().AddSingleton<Dependency>().AddStripedPooled<Service>(o => o.MaximumRetained = 64).BuildServiceProvider();
        Assert.Equal(64, provider.GetRequiredService<StripedObjectPool<Service>>().MaximumRetained);
        Assert.Equal(64, provider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>().Get(typeof(Service).FullName).MaximumRetained);
    }

    [Fact]
    public void AddStripedPooledWithAnImplementationBuildsItWithItsDependencies()
    {
        using ServiceProvider provider = new ServiceCollection().AddSingleton<Dependency>().AddStripedPooled<IService, Service>().BuildServiceProvider(validateScopes: true);
        Assert.Equal(Dependency.Message, provider.GetRequiredService<ObjectPool<IService>>().Get().ReadMessage());
    }

    [Fact]
    public void AddStripedPooledWithAnImplementationTakesTheBound()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<IService, Service>(o => o.MaximumRetained = 64)
            .BuildServiceProvider(validateScopes: true);
        Assert.Equal(64, provider.GetRequiredService<StripedObjectPool<IService>>().MaximumRetained);
        Assert.Equal(Dependency.Message, provider.GetRequiredService<ObjectPool<IService>>().Get().ReadMessage());
        Assert.Equal(64, provider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>().Get(typeof(IService).FullName).MaximumRetained);
    }

    [Fact]
    public void AReturnedServiceIsResetAndNotDisposed()
    {
        using ServiceProvider provider = new ServiceCollection().AddSingleton<Dependency>().AddStripedPooled<IService, Service>().BuildServiceProvider(validateScopes: true);
        ObjectPool<IService> pool = provider.GetRequiredService<ObjectPool<IService>>();
        IService service = pool.Get();
        pool.Return(service);
        #pragma warning disable NP0002 // The test checks what the return did to the service.
        Assert.Equal(1, service.ResetCalls);
        Assert.Equal(0, service.DisposeCalls);
        #pragma warning restore NP0002
    }

    [Fact]
    public void OneThreadCanFillTheWholeBoundAndTheNextGetCreates()
    {
        const int Capacity = 64;
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<IService, Service>(o => o.MaximumRetained = Capacity)
            .BuildServiceProvider(validateScopes: true);
        ObjectPool<IService> pool = provider.GetRequiredService<ObjectPool<IService>>();
        IService[] services = Enumerable.Range(0, Capacity).Select(_ => pool.Get()).ToArray();
        Array.ForEach(services, pool.Return);

        for (int i = 0; i < Capacity; i++)
        {
            Assert.Contains(pool.Get(), services);
        }

        Assert.DoesNotContain(pool.Get(), services);
    }

    [Fact]
    public void APooledServiceCannotDependOnAScopedService()
    {
        using ServiceProvider provider = new ServiceCollection().AddScoped<Dependency>().AddStripedPooled<IService, Service>().BuildServiceProvider(validateScopes: true);
        Assert.Throws<InvalidOperationException>(() => provider.GetRequiredService<ObjectPool<IService>>().Get());
    }

    [Fact]
    public void AScopedHolderGivesOneInstancePerScopeAndReturnsItOnce()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<Service>()
            .AddScoped<PoolHolder<Service>>()
            .AddScoped<IService>(services => services.GetRequiredService<PoolHolder<Service>>().Instance)
            .BuildServiceProvider(validateScopes: true);

        IService first;
        IService second;
        using (IServiceScope scope = provider.CreateScope())
        {
            first = scope.ServiceProvider.GetRequiredService<IService>();
            second = scope.ServiceProvider.GetRequiredService<IService>();
        }

        Assert.Same(first, second);

        // The scope disposes the instance once and the holder returns it to the pool once, which resets it.
        Assert.Equal(1, first.DisposeCalls);
        Assert.Equal(1, first.ResetCalls);
    }

    [Fact]
    public void ATransientHolderGivesADistinctInstanceToEveryResolveInEveryScope()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<Service>()
            .AddTransient<PoolHolder<Service>>()
            .AddTransient<IService>(services => services.GetRequiredService<PoolHolder<Service>>().Instance)
            .BuildServiceProvider(validateScopes: true);

        IServiceScope firstScope = provider.CreateScope();
        IService first = firstScope.ServiceProvider.GetRequiredService<IService>();
        IService second = firstScope.ServiceProvider.GetRequiredService<IService>();
        IServiceScope secondScope = provider.CreateScope();
        IService third = secondScope.ServiceProvider.GetRequiredService<IService>();
        IService fourth = secondScope.ServiceProvider.GetRequiredService<IService>();
        firstScope.Dispose();
        secondScope.Dispose();

        Assert.NotSame(first, second);
        Assert.NotSame(third, fourth);
        Assert.All([first, second, third, fourth], service =>
        {
            Assert.Equal(1, service.DisposeCalls);
            Assert.Equal(1, service.ResetCalls);
        });
    }

    [Fact]
    public void ScopedHoldersInTwoScopesGiveTwoInstances()
    {
        using ServiceProvider provider = new ServiceCollection()
            .AddSingleton<Dependency>()
            .AddStripedPooled<Service>()
            .AddScoped<PoolHolder<Service>>()
            .AddScoped<IService>(services => services.GetRequiredService<PoolHolder<Service>>().Instance)
            .BuildServiceProvider(validateScopes: true);

        IServiceScope firstScope = provider.CreateScope();
        IService first = firstScope.ServiceProvider.GetRequiredService<IService>();
        IService second = firstScope.ServiceProvider.GetRequiredService<IService>();
        IServiceScope secondScope = provider.CreateScope();
        IService third = secondScope.ServiceProvider.GetRequiredService<IService>();
        IService fourth = secondScope.ServiceProvider.GetRequiredService<IService>();
        firstScope.Dispose();
        secondScope.Dispose();

        Assert.Same(first, second);
        Assert.Same(third, fourth);
        Assert.NotSame(first, third);
        Assert.All([first, third], service =>
        {
            Assert.Equal(1, service.DisposeCalls);
            Assert.Equal(1, service.ResetCalls);
        });
    }

    /// <summary>
    /// A container-managed holder of one pooled instance: it takes the instance from the pool when the container creates
    /// it and gives it back when the container disposes it, so the instance lives as long as the holder's registration.
    /// </summary>
    internal sealed class PoolHolder<TService> : IDisposable
        where TService : class
    {
        private readonly ObjectPool<TService> _pool;

        public PoolHolder(ObjectPool<TService> pool)
        {
            _pool = pool;
            Instance = pool.Get();
        }

        public TService Instance { get; }

        public void Dispose() => _pool.Return(Instance);
    }

    /// <summary>What the pooled services depend on.</summary>
    internal sealed class Dependency
    {
        public const string Message = "from the container";

        public string Text { get; } = Message;
    }

    /// <summary>The pooled service's interface.</summary>
    internal interface IService
    {
        public int ResetCalls { get; }

        public int DisposeCalls { get; }

        public string ReadMessage();
    }

    /// <summary>A pooled service that counts its resets and disposals.</summary>
    internal class Service : IService, IResettable, IDisposable
    {
        private readonly Dependency _dependency;

        public Service(Dependency dependency) => _dependency = dependency;

        public int ResetCalls { get; private set; }

        public int DisposeCalls { get; private set; }

        public string ReadMessage() => _dependency.Text;

        public bool TryReset()
        {
            ResetCalls++;
            return true;
        }

        public void Dispose() => DisposeCalls++;
    }

    /// <summary>Another implementation, registered last.</summary>
    internal sealed class OtherService : Service
    {
        public OtherService(Dependency dependency)
            : base(dependency)
        {
        }
    }
}
