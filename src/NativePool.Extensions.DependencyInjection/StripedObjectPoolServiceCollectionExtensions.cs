using System;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;
using NativePool;
using NativePool.Extensions.DependencyInjection;

// In the container's namespace, as every Microsoft.Extensions package does, so the methods need no extra using.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers striped object pools with a dependency-injection container. In the NativePool.Extensions.DependencyInjection package, which adds the container, options and configuration packages to the NativePool package's dependencies.</summary>
public static class StripedObjectPoolServiceCollectionExtensions
{
    private static readonly PoolOptionsValidator<StripedObjectPoolOptions> s_objectPoolValidator = new(
        static options => options.Validate(), OptionsConfiguration.StripedObjectPoolKeys, static (section, options) => section.Bind(options, OptionsConfiguration.RefuseUnknownKeys));

    private static readonly PoolOptionsValidator<PooledServiceOptions> s_pooledServiceValidator =
        new(static options => options.ToPoolOptions(disposeItems: false).Validate(), OptionsConfiguration.PooledServiceKeys, static (section, options) => section.Bind(options, OptionsConfiguration.RefuseUnknownKeys));

    /// <summary>Makes <see cref="ObjectPoolProvider"/> resolve to a <see cref="StripedObjectPoolProvider"/>, replacing whatever provider was registered (a framework's later <c>TryAdd</c> of the default provider then does nothing).</summary>
    /// <param name="services">The service collection.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedObjectPools(this IServiceCollection services) =>
        AddStripedObjectPools(services, configure: null);

    /// <summary>Makes <see cref="ObjectPoolProvider"/> resolve to a <see cref="StripedObjectPoolProvider"/> configured by <paramref name="configure"/>.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the provider up (for example its <see cref="StripedObjectPoolProvider.MaximumRetained"/>), or null.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedObjectPools(this IServiceCollection services, Action<StripedObjectPoolProvider>? configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        var provider = new StripedObjectPoolProvider();
        configure?.Invoke(provider);
        return ReplaceProvider(services, _ => provider);
    }

    /// <summary>Makes <see cref="ObjectPoolProvider"/> resolve to a <see cref="StripedObjectPoolProvider"/> whose pools take their <see cref="IOptions{TOptions}"/> of <see cref="StripedObjectPoolOptions"/>, bound from <paramref name="configuration"/>.</summary>
    /// <remarks>
    /// The keys are the options' names (for example <c>"MaximumRetained": 64</c>), bound by the binder's source generator;
    /// each pool's <see cref="StripedObjectPoolOptions.DisposeItems"/> and name are its own, so those keys are refused. The
    /// configuration is checked now; the final options are validated when a host starts or the provider is first
    /// resolved (<see cref="OptionsValidationException"/> then).
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the options, for example <c>configuration.GetSection("ObjectPools")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddStripedObjectPools(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        s_objectPoolValidator.Configure(services, Options.Options.DefaultName, configuration);
        return ReplaceProvider(
            services,
            static serviceProvider => new StripedObjectPoolProvider(serviceProvider.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value));
    }

    /// <summary>Registers a pool of <typeparamref name="TService"/> instances as <see cref="ObjectPool{T}"/> and <see cref="StripedObjectPool{T}"/>, shaped by the named <see cref="PooledServiceOptions"/> of <typeparamref name="TService"/>.</summary>
    /// <remarks>See <see cref="AddStripedPooled{TService, TImplementation}(IServiceCollection, Action{PooledServiceOptions}?)"/>.</remarks>
    /// <typeparam name="TService">The pooled type, created by the container's activator.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Configures the pool's options (<c>services.Configure(typeof(TService).FullName, configure)</c>), or null.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedPooled<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class =>
        AddStripedPooled<TService, TService>(services, configure);

    /// <summary>Registers a pool of <typeparamref name="TService"/> instances whose options are bound from <paramref name="configuration"/> (checked now).</summary>
    /// <remarks>See <see cref="AddStripedPooled{TService, TImplementation}(IServiceCollection, IConfiguration)"/>.</remarks>
    /// <typeparam name="TService">The pooled type, created by the container's activator.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the pool's options, for example <c>configuration.GetSection("Pools:Parser")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddStripedPooled<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        this IServiceCollection services, IConfiguration configuration)
        where TService : class =>
        AddStripedPooled<TService, TService>(services, configuration);

    /// <summary>Registers a singleton pool of <typeparamref name="TImplementation"/> instances as <see cref="ObjectPool{T}"/> of <typeparamref name="TService"/> (and as <see cref="StripedObjectPool{T}"/>, for leases and scoped calls), shaped by the named <see cref="PooledServiceOptions"/> of <typeparamref name="TService"/>.</summary>
    /// <remarks>
    /// The options are named <c>typeof(TService).FullName</c>, as Microsoft's <c>AddPooled</c> names its own, and are
    /// validated once, when the host starts or the pool is first resolved. Instances are created by the container's
    /// activator and owned by the pool, which disposes them (and is disposed with the container) when
    /// <typeparamref name="TImplementation"/> is <see cref="IDisposable"/>, unlike <c>AddPooled</c>. A returned
    /// <see cref="IResettable"/> is kept only if it resets. Registering again replaces the pool; every
    /// <paramref name="configure"/> applies, in order.
    /// </remarks>
    /// <typeparam name="TService">The type the pool hands out.</typeparam>
    /// <typeparam name="TImplementation">The type the pool creates.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Configures the pool's options (<c>services.Configure(typeof(TService).FullName, configure)</c>), or null.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedPooled<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class
        where TImplementation : class, TService
    {
        ArgumentNullException.ThrowIfNull(services);
        s_pooledServiceValidator.Configure(services, typeof(TService).FullName!, configure);
        return AddPooledService<TService, TImplementation>(services);
    }

    /// <summary>Registers a singleton pool of <typeparamref name="TImplementation"/> instances as <see cref="ObjectPool{T}"/> of <typeparamref name="TService"/> (and as <see cref="StripedObjectPool{T}"/>), whose options are bound from <paramref name="configuration"/>.</summary>
    /// <remarks>Its one key is <c>MaximumRetained</c>. The configuration is checked now, and nothing is registered when it fails; otherwise as <see cref="AddStripedPooled{TService, TImplementation}(IServiceCollection, Action{PooledServiceOptions}?)"/>.</remarks>
    /// <typeparam name="TService">The type the pool hands out.</typeparam>
    /// <typeparam name="TImplementation">The type the pool creates.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the pool's options, for example <c>configuration.GetSection("Pools:Parser")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddStripedPooled<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        this IServiceCollection services, IConfiguration configuration)
        where TService : class
        where TImplementation : class, TService
    {
        ArgumentNullException.ThrowIfNull(services);
        s_pooledServiceValidator.Configure(services, typeof(TService).FullName!, configuration);
        return AddPooledService<TService, TImplementation>(services);
    }

    /// <summary>Registers the pool of <typeparamref name="TService"/>, built from its options (named by its full name, as Microsoft's <c>AddPooled</c> names them) when first resolved.</summary>
    private static IServiceCollection AddPooledService<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        IServiceCollection services)
        where TService : class
        where TImplementation : class, TService
    {
        services.AddSingleton(serviceProvider =>
        {
            // The monitor's instance: the one ValidateOnStart validated, so the configure calls run once.
            PooledServiceOptions options = serviceProvider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>().Get(typeof(TService).FullName);
            bool disposeItems = typeof(IDisposable).IsAssignableFrom(typeof(TImplementation));
            return new StripedObjectPool<TService>(
                new ServicePooledObjectPolicy<TService, TImplementation>(serviceProvider), options.ToPoolOptions(disposeItems));
        });
        services.AddSingleton<ObjectPool<TService>>(static serviceProvider => serviceProvider.GetRequiredService<StripedObjectPool<TService>>());
        return services;
    }

    private static IServiceCollection ReplaceProvider(IServiceCollection services, Func<IServiceProvider, StripedObjectPoolProvider> create)
    {
        services.RemoveAll<ObjectPoolProvider>();
        services.RemoveAll<StripedObjectPoolProvider>();
        services.AddSingleton(create);
        services.AddSingleton<ObjectPoolProvider>(static serviceProvider => serviceProvider.GetRequiredService<StripedObjectPoolProvider>());
        return services;
    }
}
