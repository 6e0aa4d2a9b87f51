using System.Threading;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>The contention benchmark's policy for Microsoft's pool: creates <c>byte[length]</c>, keeps every returned array as is.</summary>
public sealed class FixedArrayPolicy : IPooledObjectPolicy<byte[]>
{
    private readonly int _length;
    private long _built;

    public FixedArrayPolicy(int length) => _length = length;

    /// <summary>The arrays this policy has built (one policy per pool, so one count per side).</summary>
    public long Built => Volatile.Read(ref _built);

    public byte[] Create()
    {
        // Interlocked: the contention bodies build on many threads at once.
        Interlocked.Increment(ref _built);
        return new byte[_length];
    }

    public bool Return(byte[] obj) => true;
}
