namespace NativePool.Tests.Parity;

/// <summary>The array-pool parity suite against <see cref="StripedArrayPool{T}"/>.</summary>
public sealed class StripedArrayPoolParityTests : ArrayPoolParityTests
{
    protected override bool IsStriped => true;

    protected override ArrayPool<T> SharedPool<T>() => StripedArrayPool<T>.Shared;

    protected override ArrayPool<T> Create<T>() => StripedArrayPool<T>.Create();

    protected override ArrayPool<T> Create<T>(int maxArrayLength, int maxArraysPerBucket) => StripedArrayPool<T>.Create(maxArrayLength, maxArraysPerBucket);
}
