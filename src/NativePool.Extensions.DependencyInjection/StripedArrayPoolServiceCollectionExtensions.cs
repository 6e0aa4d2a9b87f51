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
    private static readonly PoolOptionsValidator<StripedArrayPoolOptions> s_validator = new(static options => options.Validate());

    /// <summary>
    /// Registers a <see cref="StripedArrayPool{T}"/> named <paramref name="name"/> as a keyed singleton, resolved as
    /// <see cref="StripedArrayPool{T}"/> or <see cref="ArrayPool{T}"/> with the key <paramref name="name"/>
    /// (<c>[FromKeyedServices("name")] ArrayPool&lt;byte&gt; pool</c>), and shaped by the
    /// <see cref="StripedArrayPoolOptions"/> named <paramref name="name"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <c>services.Configure&lt;StripedArrayPoolOptions&gt;(name, …)</c>, <c>PostConfigure</c> and configuration bound
    /// under that name apply as well as <paramref name="configure"/>. The options are read once, when the pool is first
    /// resolved, and validated then: an option out of range throws <see cref="OptionsValidationException"/> at that
    /// moment, or when the host starts (the name is registered with <c>ValidateOnStart</c>). Later changes to the
    /// options do not reshape the pool. A <see cref="PoolOptions.Name"/> left null becomes <paramref name="name"/>, so
    /// the pool's events and metrics carry it.
    /// </para>
    /// <para>
    /// The pool is registered once per element type and name: calling again with the same ones adds its
    /// <paramref name="configure"/> to the same pool's options. Pools of different element types under one name share
    /// their options, as they share the name. The pool holds no resource that needs disposing: once the container is
    /// disposed and nothing else holds the pool, the GC collects it with its arrays.
    /// </para>
    /// </remarks>
    /// <typeparam name="T">The element type.</typeparam>
    /// <param name="services">The service collection.</param>
    /// <param name="name">The pool's key and the name of its options; not empty.</param>
    /// <param name="configure">
    /// Configures the pool's options (<c>services.Configure(name, configure)</c>, run when the pool is first resolved),
    /// or null for the defaults and whatever else configures them.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> or <paramref name="name"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="name"/> is empty.</exception>
    public static IServiceCollection AddStripedArrayPool<T>(this IServiceCollection services, string name, Action<StripedArrayPoolOptions>? configure = null)
    {
        CheckArguments(services, name);

        if (configure is not null)
        {
            services.Configure(name, configure);
        }

        return AddPool<T>(services, name);
    }

    /// <summary>
    /// Registers a <see cref="StripedArrayPool{T}"/> named <paramref name="name"/> as a keyed singleton (resolved as
    /// <see cref="StripedArrayPool{T}"/> or <see cref="ArrayPool{T}"/> with the key <paramref name="name"/>) whose
    /// options are bound from <paramref name="configuration"/>.
    /// </summary>
    /// <remarks>
    /// <para>
    /// <c>services.Configure&lt;StripedArrayPoolOptions&gt;(name, configuration)</c>, bound by the binder's source
    /// generator. The keys are the options configuration can set: <c>MaximumArrayLength</c>, <c>ItemsPerStripe</c>,
    /// <c>MaximumRetainedBytesPerSizeClass</c>, <c>StripeCount</c>, <c>ClearOnReturn</c>,
    /// <c>ClearReferencesOnReturn</c>, <c>Guarded</c>, <c>TrackLeaks</c>, <c>MisusePolicy</c> and
    /// <c>DoubleReturnPolicy</c> (by name: <c>Throw</c>, <c>Report</c>, <c>Ignore</c>), <c>TrimmingEnabled</c>,
    /// <c>TrimInterval</c>, <c>TrimAge</c> (<c>"00:00:30"</c>) and <c>Name</c>. Everything else is as with
    /// <see cref="AddStripedArrayPool{T}(IServiceCollection, string, Action{StripedArrayPoolOptions}?)"/>.
    /// </para>
    /// <para>
    /// The configuration is checked now: a key that is not an option, or a value that cannot be read as its option's
    /// type (a word for a number, an enum name that is not defined), throws <see cref="InvalidOperationException"/>; a
    /// value out of range (a negative length, an enum number that is not defined) throws
    /// <see cref="ArgumentOutOfRangeException"/> (whose <see cref="ArgumentException.ParamName"/> is the option's name);
    /// the messages name the configuration key and the value, and nothing is registered. The final options are
    /// validated when the host starts or the pool is first resolved, as the other overload's are.
    /// </para>
    /// </remarks>
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

        if (configuration is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(configuration));
        }

        OptionsConfiguration.Check(
            configuration,
            new StripedArrayPoolOptions(),
            OptionsConfiguration.StripedArrayPoolKeys,
            static (section, options) => section.Bind(options),
            static options => options.Validate());

        services.Configure<StripedArrayPoolOptions>(name, configuration, OptionsConfiguration.RefuseUnknownKeys);
        return AddPool<T>(services, name);
    }

    private static void CheckArguments(IServiceCollection services, string name)
    {
        if (services is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(services));
        }

        if (name is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(name));
        }

        if (name.Length == 0)
        {
            ThrowHelper.ThrowEmptyName(nameof(name));
        }
    }

    /// <summary>Registers the pool keyed <paramref name="name"/>, built from its options when first resolved, unless it is registered already.</summary>
    private static IServiceCollection AddPool<T>(IServiceCollection services, string name)
    {
        services.AddOptions<StripedArrayPoolOptions>(name).ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<StripedArrayPoolOptions>>(s_validator));
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
