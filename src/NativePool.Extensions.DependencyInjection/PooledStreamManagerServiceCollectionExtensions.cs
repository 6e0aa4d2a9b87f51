using System;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using NativePool;
using NativePool.Extensions.DependencyInjection;

// In the container's namespace, as every Microsoft.Extensions package does, so the methods need no extra using.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers a <see cref="PooledStreamManager"/> with a dependency-injection container.</summary>
public static class PooledStreamManagerServiceCollectionExtensions
{
    private static readonly PoolOptionsValidator<PooledStreamManagerOptions> s_validator = new(static options => options.Validate());

    /// <summary>
    /// Registers a singleton <see cref="PooledStreamManager"/> shaped by <see cref="IOptions{TOptions}"/> of
    /// <see cref="PooledStreamManagerOptions"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <paramref name="configure"/> is <c>services.Configure(configure)</c>: it, every other <c>Configure</c> and
    /// <c>PostConfigure</c> of the options and configuration bound to them apply. The options are read once, when the
    /// manager is first resolved, and validated then: an option out of range throws
    /// <see cref="OptionsValidationException"/> at that moment, or when the host starts (they are registered with
    /// <c>ValidateOnStart</c>). Later changes to the options do not reshape the manager.
    /// </para>
    /// <para>
    /// The manager is registered once: calling again adds its <paramref name="configure"/> to the same manager's options.
    /// It holds no resource that needs disposing (a stream returns its buffers when the stream is disposed): once the
    /// container is disposed and nothing else holds the manager, the GC collects it with its buffers.
    /// </para>
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Configures the options (run when the manager is first resolved), or null for the defaults and whatever else configures them.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddPooledStreamManager(this IServiceCollection services, Action<PooledStreamManagerOptions>? configure = null)
    {
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        if (configure is not null)
        {
            services.Configure(configure);
        }

        return AddManager(services);
    }

    /// <summary>
    /// Registers a singleton <see cref="PooledStreamManager"/> whose options are bound from <paramref name="configuration"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <c>services.Configure&lt;PooledStreamManagerOptions&gt;(configuration)</c>, bound by the binder's source generator.
    /// The keys are the options configuration can set: <c>BlockSize</c>, <c>MaximumBufferSize</c>,
    /// <c>MaximumStreamCapacity</c>, <c>ItemsPerStripe</c>, <c>MaximumRetainedBytesPerSizeClass</c>,
    /// <c>StripeCount</c>, <c>ThrowExceptionOnToArray</c>, <c>ZeroOnReturn</c>, <c>Guarded</c>, <c>TrackLeaks</c>,
    /// <c>MisusePolicy</c> (by name: <c>Throw</c>, <c>Report</c>, <c>Ignore</c>), <c>TrimmingEnabled</c>,
    /// <c>TrimInterval</c>, <c>TrimAge</c> (<c>"00:00:30"</c>) and <c>Name</c>. Everything else is as with
    /// <see cref="AddPooledStreamManager(IServiceCollection, Action{PooledStreamManagerOptions}?)"/>.
    /// </para>
    /// <para>
    /// The configuration is checked now: a key that is not an option, or a value that cannot be read as its option's
    /// type, throws <see cref="InvalidOperationException"/>; a value out of range throws
    /// <see cref="ArgumentOutOfRangeException"/> (whose <see cref="ArgumentException.ParamName"/> is the option's name);
    /// the messages name the configuration key and the value, and nothing is registered. The final options are
    /// validated when the host starts or the manager is first resolved, as the other overload's are.
    /// </para>
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the options, for example <c>configuration.GetSection("Streams")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddPooledStreamManager(this IServiceCollection services, IConfiguration configuration)
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
            new PooledStreamManagerOptions(),
            OptionsConfiguration.PooledStreamManagerKeys,
            static (section, options) => section.Bind(options),
            static options => options.Validate());

        services.Configure<PooledStreamManagerOptions>(configuration, OptionsConfiguration.RefuseUnknownKeys);
        return AddManager(services);
    }

    /// <summary>Registers the manager, built from the options when first resolved, unless it is registered already.</summary>
    private static IServiceCollection AddManager(IServiceCollection services)
    {
        services.AddOptions<PooledStreamManagerOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<PooledStreamManagerOptions>>(s_validator));

        // The monitor's instance, the one ValidateOnStart validated (IOptions<T> would run the configure calls again).
        services.TryAddSingleton(static serviceProvider =>
            PooledStreamManager.Create(serviceProvider.GetRequiredService<IOptionsMonitor<PooledStreamManagerOptions>>().CurrentValue));
        return services;
    }
}
