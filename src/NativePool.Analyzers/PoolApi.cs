using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Recognizes the pools' rent and return methods of one compilation by containing type, name and return shape, so that
/// both a pool's current verbs and the unified ones (<c>RentScoped</c> for a ref-struct scope, <c>RentLease</c> for a
/// storable lease) are understood.
/// </summary>
internal sealed class PoolApi
{
    private readonly INamedTypeSymbol? _memoryPool;
    private readonly INamedTypeSymbol? _objectPool;
    private readonly INamedTypeSymbol? _disposable;

    private PoolApi(Compilation compilation)
    {
        ArrayPool = compilation.GetTypeByMetadataName("System.Buffers.ArrayPool`1");
        _memoryPool = compilation.GetTypeByMetadataName("System.Buffers.MemoryPool`1");
        _objectPool = compilation.GetTypeByMetadataName("Microsoft.Extensions.ObjectPool.ObjectPool`1");
        _disposable = compilation.GetTypeByMetadataName("System.IDisposable");
        StripedArrayPool = compilation.GetTypeByMetadataName("NativePool.StripedArrayPool`1");
    }

    /// <summary><c>System.Buffers.ArrayPool&lt;T&gt;</c>, when the compilation has it.</summary>
    public INamedTypeSymbol? ArrayPool { get; }

    /// <summary><c>NativePool.StripedArrayPool&lt;T&gt;</c> when the compilation references NativePool.</summary>
    public INamedTypeSymbol? StripedArrayPool { get; }

    /// <summary>The pool API of <paramref name="compilation"/>, or <see langword="null"/> when it references no pool.</summary>
    public static PoolApi? TryCreate(Compilation compilation)
    {
        PoolApi api = new(compilation);
        return api.ArrayPool is null && api._objectPool is null && api._memoryPool is null && api.StripedArrayPool is null ? null : api;
    }

    /// <summary>Whether <paramref name="method"/> rents, and what it hands out.</summary>
    public bool IsRent(IMethodSymbol method, out ResourceKind kind)
    {
        kind = default;
        if (method.IsStatic || method.ContainingType is not { } owner)
        {
            return false;
        }

        if (method.Name == "Rent" && method.ReturnType is IArrayTypeSymbol && DerivesFrom(owner, ArrayPool))
        {
            kind = ResourceKind.Array;
            return true;
        }

        if (method.Name == "Get" && method.Parameters.Length == 0 && DerivesFrom(owner, _objectPool))
        {
            kind = ResourceKind.Object;
            return true;
        }

        if (method.Name.StartsWith("Rent", System.StringComparison.Ordinal) && IsPool(owner) && IsDisposableShape(method.ReturnType))
        {
            kind = ResourceKind.Disposable;
            return true;
        }

        return false;
    }

    /// <summary>Whether <paramref name="invocation"/> returns an array or object to a pool; the item is its first argument.</summary>
    public bool IsReturn(IInvocationOperation invocation)
    {
        IMethodSymbol method = invocation.TargetMethod;
        return method.Name == "Return" && !method.IsStatic && invocation.Arguments.Length > 0 && method.ContainingType is { } owner
            && (DerivesFrom(owner, ArrayPool) || DerivesFrom(owner, _objectPool));
    }

    /// <summary>Whether <paramref name="method"/> is a parameterless <c>Dispose</c>.</summary>
    public static bool IsDispose(IMethodSymbol method) => method.Name == "Dispose" && method.Parameters.Length == 0 && !method.IsStatic;

    private bool IsPool(INamedTypeSymbol type)
        => DerivesFrom(type, ArrayPool) || DerivesFrom(type, _memoryPool) || DerivesFrom(type, _objectPool)
            || (type.ContainingNamespace is { Name: "NativePool", ContainingNamespace.IsGlobalNamespace: true } && type.Name.EndsWith("Pool", System.StringComparison.Ordinal));

    private bool IsDisposableShape(ITypeSymbol type)
    {
        if (type.IsRefLikeType)
        {
            // A ref struct disposes through a public parameterless Dispose (pattern-based using).
            foreach (ISymbol member in type.GetMembers("Dispose"))
            {
                if (member is IMethodSymbol method && IsDispose(method) && method.DeclaredAccessibility == Accessibility.Public)
                {
                    return true;
                }
            }

            return false;
        }

        if (_disposable is null || type.TypeKind is not (TypeKind.Struct or TypeKind.Interface or TypeKind.Class))
        {
            return false;
        }

        return SymbolEqualityComparer.Default.Equals(type, _disposable) || System.Linq.Enumerable.Contains(type.AllInterfaces, _disposable, SymbolEqualityComparer.Default);
    }

    private static bool DerivesFrom(INamedTypeSymbol? type, INamedTypeSymbol? baseDefinition)
    {
        if (baseDefinition is null)
        {
            return false;
        }

        for (INamedTypeSymbol? current = type; current is not null; current = current.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(current.OriginalDefinition, baseDefinition))
            {
                return true;
            }
        }

        return false;
    }
}
