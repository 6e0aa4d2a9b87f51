// The pools the array pool contract runs against, and one concrete test class per pool × element type. The classes are
// one line each and only meaningful together, so they share this file.
namespace NativePool.Tests.ArrayPool;

/// <summary>The reference: <see cref="ArrayPool{T}.Shared"/>, which keeps 2^30 elements at most.</summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class BclSharedPoolContract<T> : ArrayPoolContractTests<T>
{
    protected sealed override ArrayPool<T> Pool => ArrayPool<T>.Shared;

    protected sealed override int MaximumPooledLength => 1 << 30;

    // The BCL only promises "at least minimumLength".
    protected sealed override bool RentsExactSizeClasses => false;

    // Measured: ArrayPool<T>.Shared keeps contents, references included, unless clearArray is true.
    protected sealed override bool ClearsWithoutClearArray => false;
}

/// <summary><see cref="StripedArrayPool{T}.Shared"/>.</summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class StripedSharedPoolContract<T> : StripedArrayPoolContractTests<T>
{
    protected sealed override StripedArrayPool<T> StripedPool => StripedArrayPool<T>.Shared;
}

/// <summary>An instance with four stripes of two arrays each, classes up to 4096 elements, no trimming.</summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class FourStripePoolContract<T> : CreatedStripedArrayPoolContractTests<T>
{
    protected sealed override StripedArrayPoolOptions CreateOptions() => new()
    {
        StripeCount = 4,
        ItemsPerStripe = 2,
        MaximumArrayLength = 4096,
        TrimmingEnabled = false,
    };
}

/// <summary>An instance that clears every returned array and keeps at most 64 KiB per size class, classes up to 2^20.</summary>
/// <typeparam name="T">The element type.</typeparam>
public abstract class ClearingPoolContract<T> : CreatedStripedArrayPoolContractTests<T>
{
    protected sealed override StripedArrayPoolOptions CreateOptions() => new()
    {
        ClearOnReturn = true,
        MaximumRetainedBytesPerSizeClass = 64 * 1024,
        MaximumArrayLength = 1 << 20,
    };
}

public sealed class BclSharedPoolContractOfByte : BclSharedPoolContract<byte>;

public sealed class BclSharedPoolContractOfChar : BclSharedPoolContract<char>;

public sealed class BclSharedPoolContractOfInt : BclSharedPoolContract<int>;

public sealed class BclSharedPoolContractOfTaggedValue : BclSharedPoolContract<TaggedValue>;

public sealed class BclSharedPoolContractOfObject : BclSharedPoolContract<object>;

public sealed class StripedSharedPoolContractOfByte : StripedSharedPoolContract<byte>;

public sealed class StripedSharedPoolContractOfChar : StripedSharedPoolContract<char>;

public sealed class StripedSharedPoolContractOfInt : StripedSharedPoolContract<int>;

public sealed class StripedSharedPoolContractOfTaggedValue : StripedSharedPoolContract<TaggedValue>;

public sealed class StripedSharedPoolContractOfObject : StripedSharedPoolContract<object>;

public sealed class FourStripePoolContractOfByte : FourStripePoolContract<byte>;

public sealed class FourStripePoolContractOfChar : FourStripePoolContract<char>;

public sealed class FourStripePoolContractOfInt : FourStripePoolContract<int>;

public sealed class FourStripePoolContractOfTaggedValue : FourStripePoolContract<TaggedValue>;

public sealed class FourStripePoolContractOfObject : FourStripePoolContract<object>;

public sealed class ClearingPoolContractOfByte : ClearingPoolContract<byte>;

public sealed class ClearingPoolContractOfChar : ClearingPoolContract<char>;

public sealed class ClearingPoolContractOfInt : ClearingPoolContract<int>;

public sealed class ClearingPoolContractOfTaggedValue : ClearingPoolContract<TaggedValue>;

public sealed class ClearingPoolContractOfObject : ClearingPoolContract<object>;
