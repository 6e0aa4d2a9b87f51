namespace NativePool.Benchmarks.Peers;

/// <summary>The re-created Tedd-style pool as an adapter.</summary>
public readonly struct TeddStylePoolAdapter<T>(TeddStyleObjectPool<T> pool) : IObjectPoolAdapter<T>
    where T : class
{
    public T Take() => pool.Allocate();

    public void Give(T item) => pool.Free(item);
}
