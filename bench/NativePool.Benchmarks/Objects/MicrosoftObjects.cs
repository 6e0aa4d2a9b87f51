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
