namespace NativePool.Benchmarks.Peers;

/// <summary><c>ArrayPool&lt;byte&gt;.Shared</c> as an <see cref="IBytePool"/>.</summary>
public readonly struct SharedBytes : IBytePool
{
    public byte[] Rent(int length) => ArrayPool<byte>.Shared.Rent(length);

    public void Release(byte[] array) => ArrayPool<byte>.Shared.Return(array);
}
