using System;
using Microsoft.Extensions.ObjectPool;

namespace NativePool;

/// <summary>
/// An <see cref="ObjectPoolProvider"/> that creates <see cref="StripedObjectPool{T}"/>s: register it with
/// <see cref="StripedObjectPoolServiceCollectionExtensions.AddStripedObjectPools(Microsoft.Extensions.DependencyInjection.IServiceCollection)"/>
/// and existing code that resolves <see cref="ObjectPoolProvider"/> gets striped pools.
/// </summary>
/// <remarks>
/// As Microsoft's <see cref="DefaultObjectPoolProvider"/> does, it picks the disposing behaviour for types that
/// implement <see cref="IDisposable"/>: such pools dispose the objects they drop, and dispose everything they hold when
/// they are disposed. The provider itself holds no state besides <see cref="MaximumRetained"/> and is safe to share.
/// </remarks>
public sealed class StripedObjectPoolProvider : ObjectPoolProvider
{
    private int _maximumRetained = StripedObjectPoolOptions.DefaultMaximumRetained;

    /// <summary>The strict bound on retained objects of the pools created from now on. Defaults to <c>Environment.ProcessorCount * 2</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is below 1 or above <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>.</exception>
    public int MaximumRetained
    {
        get => _maximumRetained;
        set
        {
            StripedObjectPoolOptions.ValidateMaximumRetained(value, nameof(value));
            _maximumRetained = value;
        }
    }

    /// <summary>Creates a striped pool with <paramref name="policy"/>, disposing when <typeparamref name="T"/> is <see cref="IDisposable"/>.</summary>
    /// <typeparam name="T">The type of the pooled objects.</typeparam>
    /// <param name="policy">Creates objects and decides whether a returned one is kept.</param>
    /// <returns>A new <see cref="StripedObjectPool{T}"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="policy"/> is null.</exception>
    public override ObjectPool<T> Create<T>(IPooledObjectPolicy<T> policy) =>
        new StripedObjectPool<T>(policy, new StripedObjectPoolOptions
        {
            MaximumRetained = _maximumRetained,
            DisposeItems = typeof(IDisposable).IsAssignableFrom(typeof(T)),
        });
}
