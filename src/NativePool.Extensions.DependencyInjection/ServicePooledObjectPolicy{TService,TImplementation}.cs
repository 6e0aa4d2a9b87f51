using System;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The policy of a pool registered with <c>AddStripedPooled</c>: instances come from <see cref="ActivatorUtilities"/> with the root provider, so the container does not track them.</summary>
/// <typeparam name="TService">The registered service type.</typeparam>
/// <typeparam name="TImplementation">The type created.</typeparam>
internal sealed class ServicePooledObjectPolicy<TService, [DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TImplementation> : PooledObjectPolicy<TService>
    where TService : class
    where TImplementation : class, TService
{
    private readonly IServiceProvider _services;
    private readonly ObjectFactory<TImplementation> _factory;

    public ServicePooledObjectPolicy(IServiceProvider services)
    {
        _services = services;
        _factory = ActivatorUtilities.CreateFactory<TImplementation>(Type.EmptyTypes);
    }

    /// <inheritdoc />
    public override TService Create() => _factory(_services, null);

    /// <inheritdoc />
    public override bool Return(TService obj) => obj is not IResettable resettable || resettable.TryReset();
}
