namespace NativePool.Benchmarks.Peers;

/// <summary>The re-created Tedd-style pool of <c>byte[]</c> as an adapter.</summary>
/// <remarks>Not generic, so a body generic over it is compiled for it alone (see <see cref="IObjectPoolAdapter{T}"/>).</remarks>
public readonly struct TeddStylePoolAdapter(TeddStyleObjectPool<byte[]> pool) : IObjectPoolAdapter<byte[]>
{
    public byte[] Take() => pool.Allocate();

    public void Give(byte[] item) => pool.Free(item);
}
