namespace NativePool.Analyzers;

/// <summary>The identifiers of the diagnostics NativePool's analyzers report.</summary>
public static class DiagnosticIds
{
    /// <summary>A pooled array or object is returned twice on some path.</summary>
    public const string DoubleReturn = "NP0001";

    /// <summary>A pooled array or object (or a span or memory over it) is used after it was returned.</summary>
    public const string UseAfterReturn = "NP0002";

    /// <summary>A pooled array or object is not returned on some path.</summary>
    public const string NotReturned = "NP0003";

    /// <summary>A pool's scope, lease or memory owner is not disposed on some path.</summary>
    public const string NotDisposed = "NP0004";

    /// <summary>A pooled array or object is returned to a pool other than the one it was rented from.</summary>
    public const string ReturnedToOtherPool = "NP0005";

    /// <summary><c>ArrayPool&lt;T&gt;.Shared</c> can be <c>StripedArrayPool&lt;T&gt;.Shared</c>.</summary>
    public const string UseStripedArrayPool = "NP0006";

    /// <summary>A rent with a <c>try</c>/<c>finally</c> return can be a <c>using</c> scope.</summary>
    public const string UseRentScoped = "NP0007";

    /// <summary>A pooled array or object is returned twice, but only on a path where an exception is thrown.</summary>
    public const string DoubleReturnOnException = "NP0008";

    /// <summary>A pooled array or object (or a span or memory over it) is used after its return, but only on a path where an exception is thrown.</summary>
    public const string UseAfterReturnOnException = "NP0009";

    /// <summary>A pooled array or object is not returned, but only on a path where an exception is thrown.</summary>
    public const string NotReturnedOnException = "NP0010";

    /// <summary>A pool's scope, lease or memory owner is not disposed, but only on a path where an exception is thrown.</summary>
    public const string NotDisposedOnException = "NP0011";

    /// <summary>A pool scope (<c>ArrayScope&lt;T&gt;</c>, <c>ObjectScope&lt;T&gt;</c>) is copied, so two copies could return one item.</summary>
    public const string ScopeCopied = "NP0012";

    /// <summary>A pooled item, or a span, memory or task over it, leaves the method that gives the item back to its pool.</summary>
    public const string EscapesItsReturn = "NP0013";

    /// <summary>A rent returned without a <c>try</c>/<c>finally</c> can be a <c>using</c> scope, which also returns it when the code between throws.</summary>
    public const string UseRentScopedWithoutFinally = "NP0014";

    /// <summary>A <c>stackalloc</c>-or-rent can hold its rent in a scope that is <c>default</c> beside the <c>stackalloc</c>.</summary>
    public const string UseRentScopedBesideStackalloc = "NP0015";

    /// <summary>A rent held across an <c>await</c>, returned in a <c>finally</c> or without one, can be a <c>using</c> lease.</summary>
    public const string UseRentLease = "NP0016";
}
