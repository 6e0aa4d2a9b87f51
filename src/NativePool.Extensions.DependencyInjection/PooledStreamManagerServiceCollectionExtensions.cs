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
    private static readonly PoolOptionsValidator<PooledStreamManagerOptions> s_validator = new(
        static options => options.Validate(), OptionsConfiguration.PooledStreamManagerKeys, static (section, options) => section.Bind(options, OptionsConfiguration.RefuseUnknownKeys));

    /// <summary>Registers a singleton <see cref="PooledStreamManager"/> shaped by <see cref="IOptions{TOptions}"/> of <see cref="PooledStreamManagerOptions"/>.</summary>
    /// <remarks>
    /// Every <c>Configure</c>, <c>PostConfigure</c> and configuration of the options applies; they are validated once, when
    /// the host starts or the manager is first resolved (<see cref="OptionsValidationException"/> then). Registered once:
    /// calling again adds <paramref name="configure"/>. Nothing to dispose (streams return their own buffers).
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Configures the options (run when the manager is first resolved), or null for the defaults and whatever else configures them.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddPooledStreamManager(this IServiceCollection services, Action<PooledStreamManagerOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        s_validator.Configure(services, Options.Options.DefaultName, configure);
        return AddManager(services);
    }

    /// <summary>Registers a singleton <see cref="PooledStreamManager"/> whose options are bound from <paramref name="configuration"/>.</summary>
    /// <remarks>The keys are the options' names, bound by the binder's source generator. The configuration is checked now, and nothing is registered when it fails; otherwise as <see cref="AddPooledStreamManager(IServiceCollection, Action{PooledStreamManagerOptions}?)"/>.</remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section that holds the options, for example <c>configuration.GetSection("Streams")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddPooledStreamManager(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        s_validator.Configure(services, Options.Options.DefaultName, configuration);
        return AddManager(services);
    }

    /// <summary>Registers the manager, built from the options when first resolved, unless it is registered already.</summary>
    private static IServiceCollection AddManager(IServiceCollection services)
    {
        // The monitor's instance, the one ValidateOnStart validated (IOptions<T> would run the configure calls again).
        services.TryAddSingleton(static serviceProvider =>
            PooledStreamManager.Create(serviceProvider.GetRequiredService<IOptionsMonitor<PooledStreamManagerOptions>>().CurrentValue));
        return services;
    }
}
