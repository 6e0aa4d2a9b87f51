using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Our pool of <see cref="PooledObject"/>s as an adapter. Not generic (see <see cref="IObjectPoolAdapter{T}"/>): a struct
/// instantiated over a reference type shares its code (and every body it is passed to) across element types, with
/// run-time type lookups, which a caller of the pool's own API does not pay.
/// </summary>
public readonly struct StripedObjects(StripedObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Get();

    public void Give(PooledObject item) => pool.Return(item);
}

/// <summary>
/// Our pool called through <see cref="Microsoft.Extensions.ObjectPool.ObjectPool{T}"/>, the shape a dependency-injection
/// consumer has (its field is the base type); a type of its own, not <see cref="MicrosoftObjects"/>, so a loop method
/// never serves both pools and the JIT's profile cannot favour one of them.
/// </summary>
public readonly struct StripedObjectsThroughBase(Microsoft.Extensions.ObjectPool.ObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Get();

    public void Give(PooledObject item) => pool.Return(item);
}
