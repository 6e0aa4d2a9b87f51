using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.Peers;

/// <summary>Microsoft's <see cref="DefaultObjectPool{T}"/> (or any <see cref="ObjectPool{T}"/>) as an adapter.</summary>
public readonly struct MicrosoftPoolAdapter<T>(ObjectPool<T> pool) : IObjectPoolAdapter<T>
    where T : class
{
    public T Take() => pool.Get();

    public void Give(T item) => pool.Return(item);
}
