using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>The Tedd-style pool of <see cref="PooledObject"/>s as an adapter (not generic, as <see cref="StripedObjects"/> says why).</summary>
public readonly struct TeddStyleObjects(TeddStyleObjectPool<PooledObject> pool) : IObjectPoolAdapter<PooledObject>
{
    public PooledObject Take() => pool.Allocate();

    public void Give(PooledObject item) => pool.Free(item);
}
