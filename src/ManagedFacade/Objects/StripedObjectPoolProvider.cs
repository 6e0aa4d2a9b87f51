using System;
using Microsoft.Extensions.ObjectPool;

namespace NativePool;

/// <summary>
/// An <see cref="ObjectPoolProvider"/> that creates <see cref="StripedObjectPool{T}"/>s: register it with
/// <c>services.AddStripedObjectPools()</c> (in the NativePool.Extensions.DependencyInjection package) and existing code
/// that resolves <see cref="ObjectPoolProvider"/> gets striped pools.
/// </summary>
/// <remarks>
/// As Microsoft's <see cref="DefaultObjectPoolProvider"/> does, it picks the disposing behaviour for types that
/// implement <see cref="IDisposable"/>: such pools dispose the objects they drop, and dispose everything they hold when
/// they are disposed. The provider holds no state besides the options its pools copy, and is safe to share.
/// </remarks>
public sealed class StripedObjectPoolProvider : ObjectPoolProvider
{
    /// <summary>The options every pool copies (disposal is set per pool); never handed out.</summary>
    private readonly StripedObjectPoolOptions _template = new();

    /// <summary>Creates a provider whose pools keep at most <c>Environment.ProcessorCount * 2</c> objects.</summary>
    public StripedObjectPoolProvider()
    {
    }

    /// <summary>
    /// Creates a provider whose pools copy <paramref name="options"/> (the bound, trimming, guarding, leak tracking, misuse
    /// handling). <see cref="StripedObjectPoolOptions.DisposeItems"/> is decided per pooled type (as by the parameterless
    /// constructor) and each pool has its default name.
    /// </summary>
    /// <param name="options">The options every pool created from now on copies; read now, not kept.</param>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; ParamName is the option's name.</exception>
    public StripedObjectPoolProvider(StripedObjectPoolOptions options)
    {
        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();
        _template = (StripedObjectPoolOptions)options.Clone();
        _template.Name = null;
    }

    /// <summary>The bound on retained objects (as <see cref="StripedObjectPoolOptions.MaximumRetained"/>) of the pools created from now on. Defaults to <c>Environment.ProcessorCount * 2</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is below 1 or above <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>.</exception>
    public int MaximumRetained
    {
        get => _template.MaximumRetained;
        set
        {
            StripedObjectPoolOptions.ValidateMaximumRetained(value, nameof(value));
            _template.MaximumRetained = value;
        }
    }

    /// <summary>Creates a striped pool with <paramref name="policy"/>, disposing when <typeparamref name="T"/> is <see cref="IDisposable"/>.</summary>
    /// <typeparam name="T">The type of the pooled objects.</typeparam>
    /// <param name="policy">Creates objects and decides whether a returned one is kept.</param>
    /// <returns>A new <see cref="StripedObjectPool{T}"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="policy"/> is null.</exception>
    public override ObjectPool<T> Create<T>(IPooledObjectPolicy<T> policy) => CreatePool(policy);

    /// <summary>Creates a striped pool with <paramref name="policy"/>, typed as what it is.</summary>
    internal StripedObjectPool<T> CreatePool<T>(IPooledObjectPolicy<T> policy)
        where T : class
    {
        var options = (StripedObjectPoolOptions)_template.Clone();
        options.DisposeItems = typeof(IDisposable).IsAssignableFrom(typeof(T));
        return new StripedObjectPool<T>(policy, options);
    }
}
