using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.Peers;

/// <summary>Microsoft's <see cref="DefaultObjectPool{T}"/> (or any <see cref="ObjectPool{T}"/>) of <c>byte[]</c> as an adapter.</summary>
/// <remarks>Not generic, so a body generic over it is compiled for it alone (see <see cref="IObjectPoolAdapter{T}"/>).</remarks>
public readonly struct MicrosoftPoolAdapter(ObjectPool<byte[]> pool) : IObjectPoolAdapter<byte[]>
{
    public byte[] Take() => pool.Get();

    public void Give(byte[] item) => pool.Return(item);
}
