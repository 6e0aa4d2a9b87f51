namespace NativePool.Benchmarks.Peers;

/// <summary>Our <see cref="StripedObjectPool{T}"/> of <c>byte[]</c> as an adapter (the sealed type: calls devirtualise).</summary>
/// <remarks>Not generic, so a body generic over it is compiled for it alone (see <see cref="IObjectPoolAdapter{T}"/>).</remarks>
public readonly struct StripedPoolAdapter(StripedObjectPool<byte[]> pool) : IObjectPoolAdapter<byte[]>
{
    public byte[] Take() => pool.Get();

    public void Give(byte[] item) => pool.Return(item);
}
