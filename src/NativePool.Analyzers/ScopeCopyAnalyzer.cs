using System.Collections.Immutable;
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
/// <para>
/// A scope is a <see langword="ref"/> struct, so every copy lives in the method's own frames and is visible here: a read
/// of a scope variable is allowed only as the receiver of a member access (<c>scope.Span</c>, <c>scope.Dispose()</c>),
/// as a <see langword="ref"/>, <see langword="in"/> or <see langword="out"/> argument, as the initializer of a
/// <see langword="ref"/> local, as a discard, or in a <see langword="return"/> of a variable that is not a
/// <see langword="using"/> declaration (the caller then owns the only copy). Anything else copies it: an assignment, a
/// by-value argument, a <c>using (scope)</c> statement, the return of a <see langword="using"/> variable (which is
/// disposed on the way out while the caller holds its copy).
/// </para>
/// <para>
/// This is what makes a scope cost no more than a hand-written <c>try</c>/<c>finally</c>: the default build has no
/// copies, so a scope carries no run-time check for them. Guarded pools check at run time as well.
/// </para>
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
            operation => Analyze(operation, arrayScope, objectScope),
            OperationKind.LocalReference,
            OperationKind.ParameterReference,
            OperationKind.FieldReference);
    }

    private static void Analyze(OperationAnalysisContext context, INamedTypeSymbol? arrayScope, INamedTypeSymbol? objectScope)
    {
        IOperation reference = context.Operation;
        if (reference.Type is not INamedTypeSymbol { OriginalDefinition: var definition } ||
            !(SymbolEqualityComparer.Default.Equals(definition, arrayScope) || SymbolEqualityComparer.Default.Equals(definition, objectScope)))
        {
            return;
        }

        if (!IsCopied(reference))
        {
            return;
        }

        string what = SymbolEqualityComparer.Default.Equals(definition, arrayScope) ? "array" : "object";
        context.ReportDiagnostic(Diagnostic.Create(Descriptors.ScopeCopied, reference.Syntax.GetLocation(), reference.Syntax.ToString(), what));
    }

    private static bool IsCopied(IOperation reference)
    {
        IOperation? parent = reference.Parent;
        switch (parent)
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
    {
        foreach (SyntaxReference declaration in local.DeclaringSyntaxReferences)
        {
            for (SyntaxNode? node = declaration.GetSyntax().Parent; node is not null and not StatementSyntax; node = node.Parent)
            {
                if (node is VariableDeclarationSyntax { Parent: UsingStatementSyntax or LocalDeclarationStatementSyntax { UsingKeyword.RawKind: (int)SyntaxKind.UsingKeyword } })
                {
                    return true;
                }
            }
        }

        return false;
    }
}
