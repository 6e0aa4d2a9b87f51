using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Suggests a <c>RentScoped</c> scope for the rents it can replace, when the pool has <c>RentScoped</c> (or is
/// <c>ArrayPool&lt;T&gt;.Shared</c>, which the fixes replace with <c>StripedArrayPool&lt;T&gt;.Shared</c>):
/// <c>T[] a = pool.Rent(n); try { … } finally { pool.Return(a); }</c> with the array used only inside the <c>try</c>
/// (NP0007), a rent returned without a try/finally (NP0014, see <see cref="RentWithoutFinally"/>), and a
/// <c>stackalloc</c>-or-rent (NP0015, see <see cref="StackallocOrRent"/>); and a <c>RentLease</c> lease for the first two
/// shapes where the array is held across an <c>await</c>, which no scope can live across (NP0016, see <see cref="RentAcrossAwait"/>).
/// </summary>
/// <remarks>
/// For NP0007: a scope is a ref struct, so the suggestion is left out wherever one cannot live: in async methods and iterators, and
/// where the array is used from a lambda or a local function (which cannot capture the scope). The <c>finally</c> must hold the return alone, with a
/// constant <c>clearArray</c> (it becomes <c>clearOnReturn</c>), and the array's local is not assigned in the <c>try</c>.
/// </remarks>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class RentScopedAnalyzer : PoolAnalyzer
{
    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } =
        ImmutableArray.Create(Descriptors.UseRentScoped, Descriptors.UseRentScopedWithoutFinally, Descriptors.UseRentScopedBesideStackalloc, Descriptors.UseRentLease);

    private protected override void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api)
    {
        if (api.StripedArrayPool is not null)
        {
            context.RegisterOperationAction(operation => Analyze(operation, api), OperationKind.VariableDeclarationGroup);
        }
    }

    private static void Analyze(OperationAnalysisContext context, PoolApi api)
    {
        // Reported on the declaration (the operation analyzed); NP0007, and NP0016 over a try/finally, add the try/finally
        // that follows as a second location.
        var declaration = (IVariableDeclarationGroupOperation)context.Operation;
        ITryOperation? tryOperation = declaration.Parent is IBlockOperation block && block.Operations.IndexOf(declaration) is int index && index >= 0
            && index + 1 < block.Operations.Length && block.Operations[index + 1] is ITryOperation following ? following : null;
        if (tryOperation is not null && (Match(tryOperation, api) ?? Match(tryOperation, api, lease: true)) is { } match)
        {
            context.ReportDiagnostic(Diagnostic.Create(
                match.Lease ? Descriptors.UseRentLease : Descriptors.UseRentScoped,
                match.Declaration.Syntax.GetLocation(),
                additionalLocations: [tryOperation.Syntax.GetLocation()],
                match.Local.Name));
        }
        else if ((RentWithoutFinally.Match(declaration, api) ?? RentWithoutFinally.Match(declaration, api, lease: true)) is { } withoutFinally)
        {
            context.ReportDiagnostic(Diagnostic.Create(
                withoutFinally.Lease ? Descriptors.UseRentLease : Descriptors.UseRentScopedWithoutFinally, declaration.Syntax.GetLocation(), withoutFinally.Local.Name));
        }
        else if (StackallocOrRent.Match(declaration, api) is not null)
        {
            context.ReportDiagnostic(Diagnostic.Create(
                Descriptors.UseRentScopedBesideStackalloc, declaration.Syntax.GetLocation(), declaration.Declarations[0].Declarators[0].Symbol.Name));
        }
    }

    /// <summary>The rent and try/finally return that a scope (with <paramref name="lease"/>, a lease, see <see cref="RentAcrossAwait"/>) can replace, or null.</summary>
    internal static RentScopedMatch? Match(ITryOperation tryOperation, PoolApi api, bool lease = false)
    {
        if (tryOperation.Catches.Length != 0 || tryOperation.Finally is not { Operations.Length: 1 } finallyBlock
            || finallyBlock.Operations[0] is not IExpressionStatementOperation { Operation: IInvocationOperation giveBack }
            || !api.IsReturn(giveBack) || tryOperation.Parent is not IBlockOperation block)
        {
            return null;
        }

        int index = block.Operations.IndexOf(tryOperation);
        if (index < 1 || SingleDeclarator(block.Operations[index - 1]) is not { Initializer.Value: var initial } declarator
            || MethodScan.Unwrap(initial) is not IInvocationOperation rent)
        {
            return null;
        }

        ILocalSymbol local = declarator.Symbol;
        if (ClearValue(giveBack) is not { } clearValue || !Returns(giveBack, local) || !SamePool(rent.Instance, giveBack.Instance) || !HasScopes(rent, api, lease)
            || (!lease && !CanHoldScope(tryOperation)) || !UsedOnlyInside(local, block, tryOperation.Body)
            || (lease && !RentAcrossAwait.Holds(local, block, tryOperation.Body.Syntax.Span, api, giveBack)))
        {
            return null;
        }

        return new RentScopedMatch((IVariableDeclarationGroupOperation)block.Operations[index - 1], finallyBlock.Operations[0], rent, local, clearValue, lease);
    }

    internal static IVariableDeclaratorOperation? SingleDeclarator(IOperation? operation)
        => operation is IVariableDeclarationGroupOperation { Declarations.Length: 1 } group && group.Declarations[0].Declarators.Length == 1 ? group.Declarations[0].Declarators[0] : null;

    /// <summary>Whether a scope, a ref struct, can live where <paramref name="operation"/> is: not in an async function nor an iterator.</summary>
    internal static bool CanHoldScope(IOperation operation)
        => operation.SemanticModel?.GetEnclosingSymbol(operation.Syntax.SpanStart) is not IMethodSymbol { IsAsync: true } && !InIterator(operation.Syntax);

    internal static bool InIterator(SyntaxNode node)
        => node.FirstAncestorOrSelf<MemberDeclarationSyntax>() is { } member && member.DescendantNodes().OfType<YieldStatementSyntax>().Any();

    /// <summary>The constant <c>clearArray</c> of a return (false when not given), or null when it is not a constant.</summary>
    internal static bool? ClearValue(IInvocationOperation giveBack)
        => MethodScan.Argument(giveBack, 1) is not { } clear || clear.ArgumentKind == ArgumentKind.DefaultValue ? false
            : clear.Value.ConstantValue is { HasValue: true, Value: bool constant } ? constant : null;

    internal static bool Returns(IInvocationOperation giveBack, ILocalSymbol local)
        => MethodScan.Unwrap(MethodScan.Argument(giveBack, 0)?.Value) is ILocalReferenceOperation returned && SymbolEqualityComparer.Default.Equals(returned.Local, local);

    /// <summary>Whether <paramref name="rent"/> rents one array from a pool with <c>RentScoped</c> (or <c>RentLease</c>), or from <c>ArrayPool&lt;T&gt;.Shared</c>.</summary>
    internal static bool HasScopes(IInvocationOperation rent, PoolApi api, bool lease = false)
        => rent.Arguments.Length == 1 && api.IsRent(rent.TargetMethod, out ResourceKind kind) && kind == ResourceKind.Array
            && (HasRent(rent.Instance?.Type, lease) || IsSharedArrayPool(rent.Instance, api));

    /// <summary>
    /// Whether <paramref name="pool"/> is <c>ArrayPool&lt;T&gt;.Shared</c> written as a type's member, in a compilation with
    /// NativePool: the fix then rents from <c>StripedArrayPool&lt;T&gt;.Shared</c>, so one run turns such a site into a scope.
    /// </summary>
    internal static bool IsSharedArrayPool(IOperation? pool, PoolApi api)
        => api.StripedArrayPool is { DeclaredAccessibility: Accessibility.Public } && api.ArrayPool is { } arrayPool
            && MethodScan.Unwrap(pool) is IPropertyReferenceOperation { Property: { Name: "Shared", IsStatic: true } property, Syntax: MemberAccessExpressionSyntax { Expression: var type } }
            && SymbolEqualityComparer.Default.Equals(property.ContainingType.OriginalDefinition, arrayPool)
            && SharedArrayPoolAnalyzer.GetGenericName(type) is not null;

    /// <summary>Whether <paramref name="type"/> has <c>RentScoped(n, clearOnReturn)</c> returning a ref struct, or with <paramref name="lease"/> <c>RentLease</c> returning a storable lease.</summary>
    private static bool HasRent(ITypeSymbol? type, bool lease)
        => type?.GetMembers(lease ? "RentLease" : "RentScoped").OfType<IMethodSymbol>().Any(m => m.ReturnType.IsRefLikeType != lease && m.Parameters.Length == 2) == true;

    /// <summary>Whether a rent from <paramref name="rentFrom"/> and a return to <paramref name="returnTo"/> name the same pool: one local, parameter, field of this instance or static property.</summary>
    internal static bool SamePool(IOperation? rentFrom, IOperation? returnTo)
    {
        ISymbol? Symbol(IOperation? operation) => MethodScan.SymbolOf(operation) ?? MethodScan.Unwrap(operation) switch
        {
            IFieldReferenceOperation { Field: var field, Instance: null or IInstanceReferenceOperation } => field,
            IPropertyReferenceOperation { Property: { IsStatic: true } property } => property,
            _ => null,
        };

        ISymbol? from = Symbol(rentFrom);
        return from is not null && SymbolEqualityComparer.Default.Equals(from, Symbol(returnTo));
    }

    /// <summary>Whether every use of <paramref name="local"/> in <paramref name="block"/> but its declaration and return is a read in <paramref name="body"/>, outside lambdas.</summary>
    private static bool UsedOnlyInside(ILocalSymbol local, IBlockOperation block, IOperation body)
    {
        foreach (IOperation operation in block.Descendants())
        {
            if (operation is not ILocalReferenceOperation reference || !SymbolEqualityComparer.Default.Equals(reference.Local, local))
            {
                continue;
            }

            // Outside the body, only the return in the finally.
            if (body.Syntax.Span.Contains(reference.Syntax.Span)
                ? IsWritten(reference) || RentAcrossAwait.InFunction(reference.Syntax, block.Syntax)
                : !(reference.Parent is IArgumentOperation { Parent: IInvocationOperation } && reference.Syntax.Ancestors().OfType<FinallyClauseSyntax>().Any()))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsWritten(ILocalReferenceOperation reference)
        => reference.Parent is IAssignmentOperation assignment && assignment.Target == reference
            || reference.Parent is IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out }
            || reference.Parent is IIncrementOrDecrementOperation;
}
