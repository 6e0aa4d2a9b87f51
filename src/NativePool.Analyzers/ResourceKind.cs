namespace NativePool.Analyzers;

/// <summary>How a rented resource goes back to its pool.</summary>
internal enum ResourceKind
{
    /// <summary>An array from an <c>ArrayPool&lt;T&gt;</c>, given back with <c>Return(array)</c>.</summary>
    Array,

    /// <summary>An object from an <c>ObjectPool&lt;T&gt;</c>, given back with <c>Return(obj)</c>.</summary>
    Object,

    /// <summary>A scope, lease or memory owner, given back with <c>Dispose()</c>.</summary>
    Disposable,
}
