using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Reports every copy of a pool scope, <c>ArrayScope&lt;T&gt;</c> or <c>ObjectScope&lt;T&gt;</c> (NP0012, an error):
/// a copy would return the array or object a second time when it is disposed as well.
/// </summary>
/// <remarks>
/// A scope is a <see langword="ref"/> struct, so every copy is visible in the method. What is and is not a copy is listed
/// under NP0012 in docs/analyzers.md; a read of a scope variable anywhere else is reported.
/// </remarks>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class ScopeCopyAnalyzer : PoolAnalyzer
{
    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.ScopeCopied);

    private protected override void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api)
    {
        INamedTypeSymbol? arrayScope = context.Compilation.GetTypeByMetadataName("NativePool.ArrayScope`1");
        INamedTypeSymbol? objectScope = context.Compilation.GetTypeByMetadataName("NativePool.ObjectScope`1");
        if (arrayScope is null && objectScope is null)
        {
            return;
        }

        context.RegisterOperationAction(
            operation => Analyze(operation, arrayScope, objectScope), OperationKind.LocalReference, OperationKind.ParameterReference, OperationKind.FieldReference);
    }

    private static void Analyze(OperationAnalysisContext context, INamedTypeSymbol? arrayScope, INamedTypeSymbol? objectScope)
    {
        IOperation reference = context.Operation;
        if (reference.Type is INamedTypeSymbol { OriginalDefinition: var definition }
            && (SymbolEqualityComparer.Default.Equals(definition, arrayScope) || SymbolEqualityComparer.Default.Equals(definition, objectScope)) && IsCopied(reference))
        {
            string what = SymbolEqualityComparer.Default.Equals(definition, arrayScope) ? "array" : "object";
            context.ReportDiagnostic(Diagnostic.Create(Descriptors.ScopeCopied, reference.Syntax.GetLocation(), reference.Syntax.ToString(), what));
        }
    }

    private static bool IsCopied(IOperation reference)
    {
        switch (reference.Parent)
        {
            case IInvocationOperation invocation when invocation.Instance == reference:
            case IPropertyReferenceOperation property when property.Instance == reference:
            case IFieldReferenceOperation field when field.Instance == reference:
                return false;
            case IArgumentOperation argument:
                return argument.Parameter is null || argument.Parameter.RefKind == RefKind.None;
            case ISimpleAssignmentOperation assignment when assignment.Target == reference:
                // Overwritten, not read (the assigned value is judged where it is read).
                return false;
            case ISimpleAssignmentOperation assignment:
                return !assignment.IsRef && assignment.Target is not IDiscardOperation;
            case IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }:
                return declarator.Symbol.RefKind == RefKind.None;
            case IReturnOperation:
                return reference is ILocalReferenceOperation local && IsUsingVariable(local.Local);
            case IExpressionStatementOperation:
                return false;
            default:
                return true;
        }
    }

    private static bool IsUsingVariable(ILocalSymbol local)
        => local.DeclaringSyntaxReferences.Any(static declaration => declaration.GetSyntax().Ancestors().TakeWhile(static node => node is not StatementSyntax)
            .Any(static node => node is VariableDeclarationSyntax { Parent: UsingStatementSyntax or LocalDeclarationStatementSyntax { UsingKeyword.RawKind: (int)SyntaxKind.UsingKeyword } }));
}
