using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Recognizes the pools' rent and return methods of one compilation by containing type, name and return shape, so that
/// both a pool's current verbs and the unified ones (<c>RentScoped</c>, <c>RentLease</c>) are understood.
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

    public INamedTypeSymbol? ArrayPool { get; }

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
        INamedTypeSymbol? owner = method.IsStatic ? null : method.ContainingType;
        ResourceKind? rented = owner is null ? null
            : method.Name == "Rent" && method.ReturnType is IArrayTypeSymbol && DerivesFrom(owner, ArrayPool) ? ResourceKind.Array
            : method.Name == "Get" && method.Parameters.Length == 0 && DerivesFrom(owner, _objectPool) ? ResourceKind.Object
            : method.Name.StartsWith("Rent", System.StringComparison.Ordinal) && IsPool(owner) && IsDisposableShape(method.ReturnType) ? ResourceKind.Disposable
            : null;
        kind = rented.GetValueOrDefault();
        return rented is not null;
    }

    /// <summary>Whether <paramref name="invocation"/> returns an array or object to a pool; the item is its first argument.</summary>
    public bool IsReturn(IInvocationOperation invocation)
    {
        IMethodSymbol method = invocation.TargetMethod;
        return method.Name == "Return" && !method.IsStatic && invocation.Arguments.Length > 0 && method.ContainingType is { } owner
            && (DerivesFrom(owner, ArrayPool) || DerivesFrom(owner, _objectPool));
    }

    public static bool IsDispose(IMethodSymbol method) => method.Name == "Dispose" && method.Parameters.Length == 0 && !method.IsStatic;

    private bool IsPool(INamedTypeSymbol type)
        => DerivesFrom(type, ArrayPool) || DerivesFrom(type, _memoryPool) || DerivesFrom(type, _objectPool)
            || (type.ContainingNamespace is { Name: "NativePool", ContainingNamespace.IsGlobalNamespace: true } && type.Name.EndsWith("Pool", System.StringComparison.Ordinal));

    /// <summary>Whether <paramref name="type"/> is disposable; a ref struct through a public parameterless Dispose (pattern-based using).</summary>
    private bool IsDisposableShape(ITypeSymbol type)
        => type.IsRefLikeType
            ? type.GetMembers("Dispose").Any(static member => member is IMethodSymbol { DeclaredAccessibility: Accessibility.Public } method && IsDispose(method))
            : _disposable is not null && type.TypeKind is TypeKind.Struct or TypeKind.Interface or TypeKind.Class
                && (SymbolEqualityComparer.Default.Equals(type, _disposable) || type.AllInterfaces.Contains(_disposable, SymbolEqualityComparer.Default));

    private static bool DerivesFrom(INamedTypeSymbol? type, INamedTypeSymbol? baseDefinition)
        => baseDefinition is not null && MethodScan.AndBaseTypes(type).Any(t => SymbolEqualityComparer.Default.Equals(t.OriginalDefinition, baseDefinition));
}
