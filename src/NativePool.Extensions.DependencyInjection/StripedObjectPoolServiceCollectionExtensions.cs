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

/// <summary>
/// Registers striped object pools with a dependency-injection container. In the NativePool.Extensions.DependencyInjection
/// package, which adds the container, options and configuration packages to the NativePool package's dependencies.
/// </summary>
public static class StripedObjectPoolServiceCollectionExtensions
{
    private static readonly PoolOptionsValidator<StripedObjectPoolOptions> s_objectPoolValidator = new(static options => options.Validate());

    private static readonly PoolOptionsValidator<PooledServiceOptions> s_pooledServiceValidator =
        new(static options => options.ToPoolOptions(disposeItems: false).Validate());

    /// <summary>
    /// Makes <see cref="ObjectPoolProvider"/> resolve to a <see cref="StripedObjectPoolProvider"/>, replacing whatever
    /// provider was registered (a framework's later <c>TryAdd</c> of the default provider then does nothing).
    /// </summary>
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
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        var provider = new StripedObjectPoolProvider();
        configure?.Invoke(provider);
        return ReplaceProvider(services, _ => provider);
    }

    /// <summary>
    /// Makes <see cref="ObjectPoolProvider"/> resolve to a <see cref="StripedObjectPoolProvider"/> whose pools take their
    /// options from <paramref name="configuration"/>: <c>services.Configure&lt;StripedObjectPoolOptions&gt;(configuration)</c>,
    /// so <see cref="IOptions{TOptions}"/> of <see cref="StripedObjectPoolOptions"/> holds the bound values and later
    /// <c>Configure</c> or <c>PostConfigure</c> calls apply too.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The keys are <see cref="StripedObjectPoolOptions.MaximumRetained"/>, <see cref="StripedObjectPoolOptions.Guarded"/>,
    /// <see cref="StripedObjectPoolOptions.TrackLeaks"/>, <see cref="StripedObjectPoolOptions.MisusePolicy"/> (by name),
    /// <see cref="PoolOptions.TrimmingEnabled"/>, <see cref="PoolOptions.TrimInterval"/> and <see cref="PoolOptions.TrimAge"/>
    /// (for example <c>"MaximumRetained": 64</c>, <c>"TrimInterval": "00:00:10"</c>). Each pool's
    /// <see cref="StripedObjectPoolOptions.DisposeItems"/> is decided per pooled type and its name is its own, so those
    /// keys are refused with every other key that is not an option. Binding is source-generated: no reflection, trim-
    /// and AOT-safe.
    /// </para>
    /// <para>
    /// The configuration is checked now, so a bad value fails the registration rather than the first request that needs
    /// a pool: a key that is not an option, or a value that cannot be read as its option's type, throws
    /// <see cref="InvalidOperationException"/>; a value out of its option's range throws
    /// <see cref="ArgumentOutOfRangeException"/> (whose <see cref="ArgumentException.ParamName"/> is the option's name);
    /// the messages name the configuration key and the value. The final options (configuration, then every
    /// <c>Configure</c> and <c>PostConfigure</c>) are validated again as options are: when a host starts
    /// (<c>ValidateOnStart</c>), or else when the provider is first resolved, an out-of-range option then throws
    /// <see cref="OptionsValidationException"/>.
    /// </para>
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the options, for example <c>configuration.GetSection("ObjectPools")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddStripedObjectPools(this IServiceCollection services, IConfiguration configuration)
    {
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        if (configuration is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(configuration));
        }

        OptionsConfiguration.Check(
            configuration,
            new StripedObjectPoolOptions(),
            OptionsConfiguration.StripedObjectPoolKeys,
            static (section, options) => section.Bind(options),
            static options => options.Validate());

        services.Configure<StripedObjectPoolOptions>(configuration, OptionsConfiguration.RefuseUnknownKeys);
        services.AddOptions<StripedObjectPoolOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<StripedObjectPoolOptions>>(s_objectPoolValidator));
        return ReplaceProvider(
            services,
            static serviceProvider => new StripedObjectPoolProvider(serviceProvider.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value));
    }

    /// <summary>
    /// Registers a pool of <typeparamref name="TService"/> instances as <see cref="ObjectPool{T}"/> and
    /// <see cref="StripedObjectPool{T}"/>, shaped by the named <see cref="PooledServiceOptions"/> of
    /// <typeparamref name="TService"/>.
    /// </summary>
    /// <remarks>See <see cref="AddStripedPooled{TService, TImplementation}(IServiceCollection, Action{PooledServiceOptions}?)"/>.</remarks>
    /// <typeparam name="TService">The pooled type, created by the container's activator.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">
    /// Configures the pool's options (<c>services.Configure(typeof(TService).FullName, configure)</c>, run when the pool
    /// is first resolved), or null for the defaults and whatever else configures them.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedPooled<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class =>
        AddStripedPooled<TService, TService>(services, configure);

    /// <summary>
    /// Registers a pool of <typeparamref name="TService"/> instances whose options are bound from
    /// <paramref name="configuration"/> (checked now).
    /// </summary>
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

    /// <summary>
    /// Registers a singleton pool of <typeparamref name="TImplementation"/> instances as <see cref="ObjectPool{T}"/> of
    /// <typeparamref name="TService"/> (and as <see cref="StripedObjectPool{T}"/>, for leases and scoped calls), shaped by
    /// the named <see cref="PooledServiceOptions"/> of <typeparamref name="TService"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// The pool's options are the <see cref="PooledServiceOptions"/> named by <typeparamref name="TService"/>'s full name
    /// (<c>typeof(TService).FullName</c>, the name Microsoft's <c>AddPooled</c> gives its <c>DependencyInjectionPoolOptions</c>),
    /// so <c>services.Configure&lt;PooledServiceOptions&gt;(typeof(TService).FullName, …)</c>, <c>PostConfigure</c> and
    /// configuration bound under that name apply as well as <paramref name="configure"/>. They are read once, when the
    /// pool is first resolved, and validated then: an option out of range throws <see cref="OptionsValidationException"/>
    /// at that moment, or when the host starts (the name is registered with <c>ValidateOnStart</c>).
    /// </para>
    /// <para>
    /// Instances are created with the container's activator (constructor injection) and owned by the pool. When
    /// <typeparamref name="TImplementation"/> is <see cref="IDisposable"/> the pool is a disposing pool, and the
    /// container's disposal disposes the pool and with it every instance it holds. A returned <see cref="IResettable"/>
    /// instance is kept only if it resets. Named apart from Microsoft's <c>AddPooled</c>, whose pool does not dispose
    /// instances. Registering a service again replaces its pool; every <paramref name="configure"/> given for it applies,
    /// in order.
    /// </para>
    /// </remarks>
    /// <typeparam name="TService">The type the pool hands out.</typeparam>
    /// <typeparam name="TImplementation">The type the pool creates.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">
    /// Configures the pool's options (<c>services.Configure(typeof(TService).FullName, configure)</c>, run when the pool
    /// is first resolved), or null for the defaults and whatever else configures them.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedPooled<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class
        where TImplementation : class, TService
    {
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        string name = PooledServiceName<TService>();
        if (configure is not null)
        {
            services.Configure(name, configure);
        }

        return AddPooledService<TService, TImplementation>(services, name);
    }

    /// <summary>
    /// Registers a singleton pool of <typeparamref name="TImplementation"/> instances as <see cref="ObjectPool{T}"/> of
    /// <typeparamref name="TService"/> (and as <see cref="StripedObjectPool{T}"/>), whose options are bound from
    /// <paramref name="configuration"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <c>services.Configure&lt;PooledServiceOptions&gt;(typeof(TService).FullName, configuration)</c>, bound by the
    /// binder's source generator; its one key is <c>MaximumRetained</c>. Everything else is as with
    /// <see cref="AddStripedPooled{TService, TImplementation}(IServiceCollection, Action{PooledServiceOptions}?)"/>.
    /// </para>
    /// <para>
    /// The configuration is checked now: a key that is not an option, or a value that cannot be read as its option's
    /// type, throws <see cref="InvalidOperationException"/>; a value out of range throws
    /// <see cref="ArgumentOutOfRangeException"/> (whose <see cref="ArgumentException.ParamName"/> is the option's name);
    /// the messages name the configuration key and the value, and nothing is registered. The final options are
    /// validated when the host starts or the pool is first resolved, as the other overload's are.
    /// </para>
    /// </remarks>
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
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        if (configuration is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(configuration));
        }

        OptionsConfiguration.Check(
            configuration,
            new PooledServiceOptions(),
            OptionsConfiguration.PooledServiceKeys,
            static (section, options) => section.Bind(options),
            static options => options.ToPoolOptions(disposeItems: false).Validate());

        string name = PooledServiceName<TService>();
        services.Configure<PooledServiceOptions>(name, configuration, OptionsConfiguration.RefuseUnknownKeys);
        return AddPooledService<TService, TImplementation>(services, name);
    }

    /// <summary>The name of <typeparamref name="TService"/>'s <see cref="PooledServiceOptions"/>: its full name, as Microsoft's <c>AddPooled</c> names its options.</summary>
    private static string PooledServiceName<TService>() => typeof(TService).FullName!;

    /// <summary>Registers the pool of <typeparamref name="TService"/>, built from its options named <paramref name="name"/> when first resolved.</summary>
    private static IServiceCollection AddPooledService<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        IServiceCollection services, string name)
        where TService : class
        where TImplementation : class, TService
    {
        services.AddOptions<PooledServiceOptions>(name).ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<PooledServiceOptions>>(s_pooledServiceValidator));
        services.AddSingleton(serviceProvider =>
        {
            // The monitor's instance: the one ValidateOnStart validated, so the configure calls run once.
            PooledServiceOptions options = serviceProvider.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>().Get(name);
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
