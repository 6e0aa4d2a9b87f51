namespace NativePool.Benchmarks.Peers;

/// <summary><c>StripedArrayPool&lt;byte&gt;.Shared</c> as an <see cref="IBytePool"/>.</summary>
public readonly struct StripedBytes : IBytePool
{
    public byte[] Rent(int length) => StripedArrayPool<byte>.Shared.Rent(length);

    public void Release(byte[] array) => StripedArrayPool<byte>.Shared.Return(array);
}
