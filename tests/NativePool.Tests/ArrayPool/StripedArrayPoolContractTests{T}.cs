namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The contract of <see cref="ArrayPoolContractTests{T}"/> plus what <see cref="StripedArrayPool{T}"/> promises beyond
/// the BCL: exact power-of-two classes and arrays of reference-holding elements always cleared when kept.
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class StripedArrayPoolContractTests<T> : ArrayPoolContractTests<T>
{
    /// <summary>The pool under test.</summary>
    protected abstract StripedArrayPool<T> StripedPool { get; }

    /// <summary>Whether the pool was created with <see cref="StripedArrayPoolOptions.ClearOnReturn"/>.</summary>
    protected virtual bool ClearsEveryReturn => false;

    /// <inheritdoc />
    protected sealed override ArrayPool<T> Pool => StripedPool;

    /// <inheritdoc />
    protected sealed override int MaximumPooledLength => StripedPool.MaximumArrayLength;

    /// <inheritdoc />
    protected sealed override bool ClearsWithoutClearArray => TestElements<T>.HoldsReferences || ClearsEveryReturn;

    [Fact]
    public void ArraysArePinnedExactlyWhenTheElementsHoldNoReferences()
    {
        Assert.Equal(!TestElements<T>.HoldsReferences, StripedArrayPool<T>.ArraysArePinned);
    }
}
