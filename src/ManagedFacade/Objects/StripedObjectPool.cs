using System;
using Microsoft.Extensions.ObjectPool;

namespace NativePool;

/// <summary>Creates striped object pools, as Microsoft's <see cref="ObjectPool"/> class does for its default pools.</summary>
public static class StripedObjectPool
{
    /// <summary>
    /// Creates a <see cref="StripedObjectPool{T}"/> with <paramref name="policy"/> (or one that creates objects with
    /// <c>new T()</c> and keeps every returned one, resetting <see cref="IResettable"/> ones) that keeps at most
    /// <c>Environment.ProcessorCount * 2</c> objects; the replacement for <see cref="ObjectPool.Create{T}(IPooledObjectPolicy{T}?)"/>.
    /// </summary>
    /// <remarks>
    /// As Microsoft's, a pool of an <see cref="IDisposable"/> type disposes the objects it drops and, when it is disposed,
    /// every object it holds. The pool is safe to use from any thread.
    /// </remarks>
    /// <typeparam name="T">The type of the pooled objects.</typeparam>
    /// <param name="policy">Creates objects and decides whether a returned one is kept; null for the default policy.</param>
    /// <returns>A new pool.</returns>
    public static StripedObjectPool<T> Create<T>(IPooledObjectPolicy<T>? policy = null)
        where T : class, new() =>
        new StripedObjectPoolProvider().CreatePool(policy ?? new DefaultPooledObjectPolicy<T>());
}
