namespace NativePool.Benchmarks.Peers;

/// <summary>Our <see cref="StripedObjectPool{T}"/> as an adapter (the sealed type: calls devirtualise).</summary>
public readonly struct StripedPoolAdapter<T>(StripedObjectPool<T> pool) : IObjectPoolAdapter<T>
    where T : class
{
    public T Take() => pool.Get();

    public void Give(T item) => pool.Return(item);
}
