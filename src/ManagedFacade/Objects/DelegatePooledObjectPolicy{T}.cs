using System;
using Microsoft.Extensions.ObjectPool;

namespace NativePool;

/// <summary>The policy of a pool built from a factory and an optional cleanup: every returned object is kept once cleaned; the pool's bound decides what is dropped.</summary>
/// <typeparam name="T">The type of the pooled objects.</typeparam>
internal sealed class DelegatePooledObjectPolicy<T> : PooledObjectPolicy<T> where T : class
{
    private readonly Func<T> _factory;
    private readonly Action<T>? _cleanup;

    private DelegatePooledObjectPolicy(Func<T> factory, Action<T>? cleanup)
    {
        _factory = factory;
        _cleanup = cleanup;
    }

    /// <summary>Validates and wraps the delegates.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="factory"/> is null.</exception>
    public static DelegatePooledObjectPolicy<T> Create(Func<T> factory, Action<T>? cleanup)
    {
        if (factory is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(factory));
        }

        return new DelegatePooledObjectPolicy<T>(factory, cleanup);
    }

    /// <summary>Whether a cleanup runs on returned objects; without one, <see cref="Return"/> keeps every object as it is.</summary>
    public bool HasCleanup => _cleanup is not null;

    /// <inheritdoc />
    public override T Create() => _factory();

    /// <inheritdoc />
    public override bool Return(T obj)
    {
        _cleanup?.Invoke(obj);
        return true;
    }
}
