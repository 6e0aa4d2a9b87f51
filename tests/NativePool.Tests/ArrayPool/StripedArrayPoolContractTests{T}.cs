namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The contract of <see cref="ArrayPoolContractTests{T}"/> plus what <see cref="StripedArrayPool{T}"/> promises beyond
/// the BCL: exact power-of-two classes, and arrays of reference-holding elements cleared when kept if
/// <see cref="StripedArrayPoolOptions.ClearReferencesOnReturn"/> is turned on (off by default, as in the BCL).
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class StripedArrayPoolContractTests<T> : ArrayPoolContractTests<T>
{
    /// <summary>The pool under test.</summary>
    protected abstract StripedArrayPool<T> StripedPool { get; }

    /// <summary>Whether the pool was created with <see cref="StripedArrayPoolOptions.ClearOnReturn"/>.</summary>
    protected virtual bool ClearsEveryReturn => false;

    /// <summary>Whether the pool was created with <see cref="StripedArrayPoolOptions.ClearReferencesOnReturn"/> (off by default).</summary>
    protected virtual bool ClearsReferencesOnReturn => false;

    /// <inheritdoc />
    protected sealed override ArrayPool<T> Pool => StripedPool;

    /// <inheritdoc />
    protected sealed override int MaximumPooledLength => StripedPool.MaximumArrayLength;

    /// <inheritdoc />
    protected sealed override bool ClearsWithoutClearArray =>
        ClearsEveryReturn || (ClearsReferencesOnReturn && TestElements<T>.HoldsReferences);

    [Fact]
    public void ArraysArePinnedExactlyWhenTheElementsHoldNoReferences()
    {
        Assert.Equal(!TestElements<T>.HoldsReferences, StripedArrayPool<T>.ArraysArePinned);
    }
}
