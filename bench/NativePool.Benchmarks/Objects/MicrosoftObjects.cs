using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>Microsoft's pool of <see cref="PooledObject"/>s as an adapter (not generic, as <see cref="StripedObjects"/> says why).</summary>
public readonly struct MicrosoftObjects(ObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Get();

    public void Give(PooledObject item) => pool.Return(item);
}

/// <summary>
/// Microsoft's pool called through its own type, the shape a caller holding a <see cref="DefaultObjectPool{T}"/> field
/// has (the counterpart of <see cref="StripedObjects"/>); a type of its own, so its loop methods serve this pool alone.
/// </summary>
public readonly struct MicrosoftObjectsConcrete(DefaultObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Get();

    public void Give(PooledObject item) => pool.Return(item);
}
