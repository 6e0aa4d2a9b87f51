using System;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
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
    /// The keys are the settable properties of <see cref="StripedObjectPoolOptions"/> (for example
    /// <c>"MaximumRetained": 64</c>, <c>"Guarded": true</c>); <see cref="StripedObjectPoolOptions.OnMisuse"/>,
    /// <see cref="PoolOptions.Name"/> and <see cref="PoolOptions.TimeProvider"/> are not taken from configuration, and
    /// <see cref="StripedObjectPoolOptions.DisposeItems"/> is decided per pooled type, as without configuration. Binding
    /// is source-generated: no reflection, trim- and AOT-safe.
    /// </para>
    /// <para>
    /// The configuration is bound and validated now, so a bad value fails the registration rather than the first
    /// request that needs a pool: a value that cannot be read as its option's type throws
    /// <see cref="InvalidOperationException"/>, a value out of its option's range throws
    /// <see cref="ArgumentOutOfRangeException"/> (whose <see cref="ArgumentException.ParamName"/> is the option's name),
    /// and both messages name the configuration key and the value. The final options (configuration, then every
    /// <c>Configure</c> and <c>PostConfigure</c>) are validated again as options are: when a host starts
    /// (<c>ValidateOnStart</c>), or else when the provider is first resolved, an out-of-range option then throws
    /// <see cref="OptionsValidationException"/>.
    /// </para>
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the options, for example <c>configuration.GetSection("ObjectPools")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A value in <paramref name="configuration"/> cannot be read as its option's type.</exception>
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

        ValidateConfiguration(configuration);

        services.Configure<StripedObjectPoolOptions>(configuration);
        services.AddOptions<StripedObjectPoolOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<StripedObjectPoolOptions>, StripedObjectPoolOptionsValidator>());
        return ReplaceProvider(
            services,
            static serviceProvider => new StripedObjectPoolProvider(serviceProvider.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value));
    }

    /// <summary>Registers a pool of <typeparamref name="TService"/> instances as <see cref="ObjectPool{T}"/> and <see cref="StripedObjectPool{T}"/>.</summary>
    /// <typeparam name="TService">The pooled type, created by the container's activator.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Shapes the pool (validated now), or null for the defaults.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="configure"/> set an option out of range.</exception>
    public static IServiceCollection AddStripedPooled<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TService>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class =>
        AddStripedPooled<TService, TService>(services, configure);

    /// <summary>
    /// Registers a singleton pool of <typeparamref name="TImplementation"/> instances as <see cref="ObjectPool{T}"/> of
    /// <typeparamref name="TService"/> (and as <see cref="StripedObjectPool{T}"/>, for leases and scoped calls).
    /// </summary>
    /// <remarks>
    /// Instances are created with the container's activator (constructor injection) and owned by the pool. When
    /// <typeparamref name="TImplementation"/> is <see cref="IDisposable"/> the pool is a disposing pool, and the
    /// container's disposal disposes the pool and with it every instance it holds. A returned <see cref="IResettable"/>
    /// instance is kept only if it resets. Named apart from Microsoft's <c>AddPooled</c>, whose bound comes from named
    /// options read at resolution and whose pool does not dispose instances.
    /// </remarks>
    /// <typeparam name="TService">The type the pool hands out.</typeparam>
    /// <typeparam name="TImplementation">The type the pool creates.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Shapes the pool (validated now), or null for the defaults.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="configure"/> set an option out of range.</exception>
    public static IServiceCollection AddStripedPooled<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation>(
        this IServiceCollection services, Action<PooledServiceOptions>? configure = null)
        where TService : class
        where TImplementation : class, TService
    {
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        var options = new PooledServiceOptions();
        configure?.Invoke(options);
        var poolOptions = new StripedObjectPoolOptions
        {
            MaximumRetained = options.MaximumRetained,
            DisposeItems = typeof(IDisposable).IsAssignableFrom(typeof(TImplementation)),
        };
        poolOptions.Validate();

        services.AddSingleton(serviceProvider => new StripedObjectPool<TService>(
            new ServicePooledObjectPolicy<TService, TImplementation>(serviceProvider), poolOptions));
        services.AddSingleton<ObjectPool<TService>>(static serviceProvider => serviceProvider.GetRequiredService<StripedObjectPool<TService>>());
        return services;
    }

    /// <summary>Binds <paramref name="configuration"/> to fresh options and validates them, naming the key and value of a bad one.</summary>
    private static void ValidateConfiguration(IConfiguration configuration)
    {
        var options = new StripedObjectPoolOptions();
        try
        {
            configuration.Bind(options);
        }
        catch (InvalidOperationException exception)
        {
            // The binder's message names, in quotes, the path of the value it could not convert; the options are
            // flat, so that value is one of the section's children.
            IConfigurationSection? failed = configuration.GetChildren().FirstOrDefault(
                child => exception.Message.Contains($"'{child.Path}'", StringComparison.Ordinal));
            ThrowHelper.ThrowMalformedConfigurationValue(failed?.Path ?? SectionPath(configuration), failed?.Value, exception);
        }

        try
        {
            options.Validate();
        }
        catch (ArgumentOutOfRangeException exception) when (exception.ParamName is not null)
        {
            IConfigurationSection option = configuration.GetSection(exception.ParamName);
            ThrowHelper.ThrowConfigurationValueOutOfRange(
                exception.ParamName, option.Path, option.Value, StripedObjectPoolOptionsValidator.Reason(exception));
        }
    }

    /// <summary>The path of <paramref name="configuration"/> for messages: a section's path, or the root's empty one.</summary>
    private static string SectionPath(IConfiguration configuration) => configuration is IConfigurationSection section ? section.Path : string.Empty;

    private static IServiceCollection ReplaceProvider(IServiceCollection services, Func<IServiceProvider, StripedObjectPoolProvider> create)
    {
        services.RemoveAll<ObjectPoolProvider>();
        services.RemoveAll<StripedObjectPoolProvider>();
        services.AddSingleton(create);
        services.AddSingleton<ObjectPoolProvider>(static serviceProvider => serviceProvider.GetRequiredService<StripedObjectPoolProvider>());
        return services;
    }
}
