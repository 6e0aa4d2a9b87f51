using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// Our pool of <see cref="PooledObject"/>s as an adapter. Not generic, unlike <see cref="StripedPoolAdapter{T}"/>: a struct
/// instantiated over a reference type shares its code (and every body it is passed to) across element types, with
/// run-time type lookups, which a caller of the pool's own API does not pay.
/// </summary>
public readonly struct StripedObjects(StripedObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Get();

    public void Give(PooledObject item) => pool.Return(item);
}
