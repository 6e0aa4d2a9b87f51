using System;
using System.Buffers;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using NativePool;
using NativePool.Extensions.DependencyInjection;

// In the container's namespace, as every Microsoft.Extensions package does, so the methods need no extra using.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers named striped array pools with a dependency-injection container, as keyed services.</summary>
public static class StripedArrayPoolServiceCollectionExtensions
{
    private static readonly PoolOptionsValidator<StripedArrayPoolOptions> s_validator = new(
        static options => options.Validate(), OptionsConfiguration.StripedArrayPoolKeys, static (section, options) => section.Bind(options, OptionsConfiguration.RefuseUnknownKeys));

    /// <summary>
    /// Registers a <see cref="StripedArrayPool{T}"/> named <paramref name="name"/> as a keyed singleton, resolved as <see cref="StripedArrayPool{T}"/> or <see cref="ArrayPool{T}"/> with
    /// the key <paramref name="name"/> (<c>[FromKeyedServices("name")] ArrayPool&lt;byte&gt; pool</c>), and shaped by the <see cref="StripedArrayPoolOptions"/> named <paramref name="name"/>.
    /// </summary>
    /// <remarks>
    /// Every <c>Configure</c>, <c>PostConfigure</c> and configuration of the options named <paramref name="name"/> applies;
    /// they are validated once, when the host starts or the pool is first resolved (<see cref="OptionsValidationException"/>
    /// then). A null <see cref="PoolOptions.Name"/> becomes <paramref name="name"/>. Registered once per element type and
    /// name: calling again adds <paramref name="configure"/>, shared with other element types under the name.
    /// </remarks>
    /// <typeparam name="T">The element type.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The pool's key and the name of its options; not empty.</param>
    /// <param name="configure">Configures the pool's options (<c>services.Configure(name, configure)</c>), or null.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="name"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
    public static IServiceCollection AddStripedArrayPool<T>(this IServiceCollection services, string name, Action<StripedArrayPoolOptions>? configure = null)
    {
        CheckArguments(services, name);
        s_validator.Configure(services, name, configure);
        return AddPool<T>(services, name);
    }

    /// <summary>Registers a <see cref="StripedArrayPool{T}"/> named <paramref name="name"/> as a keyed singleton (resolved as <see cref="StripedArrayPool{T}"/> or <see cref="ArrayPool{T}"/> with the key <paramref name="name"/>) whose options are bound from <paramref name="configuration"/>.</summary>
    /// <remarks>The keys are the options' names, bound by the binder's source generator. The configuration is checked now, and nothing is registered when it fails; otherwise as <see cref="AddStripedArrayPool{T}(IServiceCollection, string, Action{StripedArrayPoolOptions}?)"/>.</remarks>
    /// <typeparam name="T">The element type.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The pool's key and the name of its options; not empty.</param>
    /// <param name="configuration">The section that holds the pool's options, for example <c>configuration.GetSection("ArrayPools:io")</c>.</param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/>, <paramref name="name"/> or <paramref name="configuration"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
    /// <exception cref="InvalidOperationException">A key in <paramref name="configuration"/> is not an option, or a value cannot be read as its option's type.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A value in <paramref name="configuration"/> is out of its option's range.</exception>
    public static IServiceCollection AddStripedArrayPool<T>(this IServiceCollection services, string name, IConfiguration configuration)
    {
        CheckArguments(services, name);
        s_validator.Configure(services, name, configuration);
        return AddPool<T>(services, name);
    }

    private static void CheckArguments(IServiceCollection services, string name)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(name);
        if (name.Length == 0)
        {
            ThrowHelper.ThrowEmptyName(nameof(name));
        }
    }

    /// <summary>Registers the pool keyed <paramref name="name"/>, built from its options when first resolved, unless it is registered already.</summary>
    private static IServiceCollection AddPool<T>(IServiceCollection services, string name)
    {
        services.TryAddKeyedSingleton(name, static (serviceProvider, key) =>
        {
            string poolName = (string)key!;

            // The monitor's instance: the one ValidateOnStart validated, so the configure calls run once.
            StripedArrayPoolOptions options = serviceProvider.GetRequiredService<IOptionsMonitor<StripedArrayPoolOptions>>().Get(poolName);
            if (options.Name is null)
            {
                options = (StripedArrayPoolOptions)options.Clone();
                options.Name = poolName;
            }

            return StripedArrayPool<T>.Create(options);
        });
        services.TryAddKeyedSingleton<ArrayPool<T>>(name, static (serviceProvider, key) => serviceProvider.GetRequiredKeyedService<StripedArrayPool<T>>(key));
        return services;
    }
}
