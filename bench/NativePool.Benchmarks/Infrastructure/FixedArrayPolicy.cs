using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>The contention benchmark's policy for Microsoft's pool: creates <c>byte[length]</c>, keeps every returned array as is.</summary>
public sealed class FixedArrayPolicy : IPooledObjectPolicy<byte[]>
{
    private readonly int _length;

    public FixedArrayPolicy(int length) => _length = length;

    public byte[] Create() => new byte[_length];

    public bool Return(byte[] obj) => true;
}
