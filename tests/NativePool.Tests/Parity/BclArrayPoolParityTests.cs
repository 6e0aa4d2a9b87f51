namespace NativePool.Tests.Parity;

/// <summary>The array-pool parity suite against the BCL's pools: the control.</summary>
public sealed class BclArrayPoolParityTests : ArrayPoolParityTests
{
    protected override bool IsStriped => false;

    protected override ArrayPool<T> SharedPool<T>() => ArrayPool<T>.Shared;

    protected override ArrayPool<T> Create<T>() => ArrayPool<T>.Create();

    protected override ArrayPool<T> Create<T>(int maxArrayLength, int maxArraysPerBucket) => ArrayPool<T>.Create(maxArrayLength, maxArraysPerBucket);
}
