namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// <see cref="StripedMemoryPool{T}.Shared"/> for the element types of the buffers suite, as a <see cref="MemoryPool{T}"/>
/// (the pool requires unmanaged elements, the suite is generic over any element type).
/// </summary>
public static class StripedMemoryPools
{
    /// <summary>Our shared pinned pool for <typeparamref name="T"/>, or null when <typeparamref name="T"/> is not byte, char or int.</summary>
    public static MemoryPool<T>? SharedFor<T>()
    {
        if (typeof(T) == typeof(byte))
        {
            return (MemoryPool<T>)(object)StripedMemoryPool<byte>.Shared;
        }

        if (typeof(T) == typeof(char))
        {
            return (MemoryPool<T>)(object)StripedMemoryPool<char>.Shared;
        }

        if (typeof(T) == typeof(int))
        {
            return (MemoryPool<T>)(object)StripedMemoryPool<int>.Shared;
        }

        return null;
    }
}
