using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Suggests <c>StripedArrayPool&lt;T&gt;.Shared</c> for <c>ArrayPool&lt;T&gt;.Shared</c> (NP0006) where NativePool is referenced.
/// </summary>
/// <remarks>
/// Not reported where the replacement could change what compiles: the initializer of an implicitly typed local (its type
/// would change) and code inside NativePool's own types.
/// </remarks>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class SharedArrayPoolAnalyzer : PoolAnalyzer
{
    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.UseStripedArrayPool);

    private protected override void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api)
    {
        if (api.ArrayPool is { } arrayPool && api.StripedArrayPool is { DeclaredAccessibility: Accessibility.Public })
        {
            context.RegisterOperationAction(operation => Analyze(operation, arrayPool), OperationKind.PropertyReference);
        }
    }

    private static void Analyze(OperationAnalysisContext context, INamedTypeSymbol arrayPool)
    {
        var reference = (IPropertyReferenceOperation)context.Operation;
        IPropertySymbol property = reference.Property;
        if (property.Name != "Shared" || !property.IsStatic || !SymbolEqualityComparer.Default.Equals(property.ContainingType.OriginalDefinition, arrayPool)
            || reference.Syntax is not MemberAccessExpressionSyntax { Expression: var poolType } || GetGenericName(poolType) is null
            || (context.ContainingSymbol.ContainingNamespace?.ToDisplayString() is { } ns && (ns == "NativePool" || ns.StartsWith("NativePool.", System.StringComparison.Ordinal)))
            || reference.Parent is IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Syntax: VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Type.IsVar: true } } } })
        {
            return;
        }

        ITypeSymbol element = property.ContainingType.TypeArguments[0];
        context.ReportDiagnostic(Diagnostic.Create(Descriptors.UseStripedArrayPool, reference.Syntax.GetLocation(), element.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat)));
    }

    /// <summary>The <c>ArrayPool&lt;T&gt;</c> part of a (possibly qualified) type name, or null.</summary>
    internal static GenericNameSyntax? GetGenericName(ExpressionSyntax type) => type switch
    {
        GenericNameSyntax generic => generic,
        QualifiedNameSyntax { Right: GenericNameSyntax right } => right,
        AliasQualifiedNameSyntax { Name: GenericNameSyntax aliased } => aliased,
        MemberAccessExpressionSyntax { Name: GenericNameSyntax member } => member,
        _ => null,
    };
}
