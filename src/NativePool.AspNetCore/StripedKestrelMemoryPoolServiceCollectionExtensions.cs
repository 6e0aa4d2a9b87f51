using System;
using System.Diagnostics.Metrics;
using Microsoft.AspNetCore.Connections;
using Microsoft.Extensions.DependencyInjection.Extensions;
using NativePool;
using NativePool.AspNetCore;

// In the container's namespace, as every Microsoft.Extensions package does, so the method needs no extra using.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers NativePool as Kestrel's transport memory.</summary>
public static class StripedKestrelMemoryPoolServiceCollectionExtensions
{
    /// <summary>
    /// Makes <see cref="IMemoryPoolFactory{T}"/> of bytes resolve to a <see cref="StripedKestrelMemoryPoolFactory"/>
    /// (also registered as itself), replacing whatever factory was registered; Kestrel's later <c>TryAdd</c> of its
    /// own then does nothing, so the call may come before or after <c>UseKestrel</c>.
    /// </summary>
    /// <remarks>
    /// The factory reports Kestrel's <c>aspnetcore.memory_pool.*</c> instruments through the container's
    /// <see cref="IMeterFactory"/> when there is one (the ASP.NET Core host registers it). The container disposes the
    /// factory, and with it any pool Kestrel left undisposed.
    /// </remarks>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">
    /// Shapes the pools, run now on options preset to <see cref="StripedKestrelMemoryPoolFactory.DefaultMaximumBufferLength"/>,
    /// <see cref="StripedKestrelMemoryPoolFactory.DefaultPoolName"/> and <see cref="StripedMemoryPoolOptions.ReuseOwners"/>
    /// (Kestrel's pipes dispose every owner exactly once), or null.
    /// </param>
    /// <returns><paramref name="services"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="services"/> is null.</exception>
    public static IServiceCollection AddStripedKestrelMemoryPool(this IServiceCollection services, Action<StripedMemoryPoolOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        StripedMemoryPoolOptions options = StripedKestrelMemoryPoolFactory.CreateDefaultOptions();
        configure?.Invoke(options);

        services.RemoveAll<IMemoryPoolFactory<byte>>();
        services.RemoveAll<StripedKestrelMemoryPoolFactory>();
        services.AddSingleton(serviceProvider => new StripedKestrelMemoryPoolFactory(options, serviceProvider.GetService<IMeterFactory>()));
        services.AddSingleton<IMemoryPoolFactory<byte>>(static serviceProvider => serviceProvider.GetRequiredService<StripedKestrelMemoryPoolFactory>());
        return services;
    }
}
