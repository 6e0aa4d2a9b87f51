using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace NativePool.Analyzers;

/// <summary>
/// Matches, for NP0014, <c>T[] a = pool.Rent(n); … pool.Return(a);</c> with no <c>try</c>/<c>finally</c>, both in one
/// block, when the array stays between the two.
/// </summary>
/// <remarks>
/// The return is a statement of the rent's block, the first to give the array back, and no path leaves the statements
/// between early (a <c>return</c>, <c>break</c>, <c>continue</c> or <c>goto</c>): the array is then returned exactly
/// where the scope returns it, and also when one of those statements throws, which the original did not do. Left alone
/// when the array may be kept (see <see cref="RangeUses"/>), when the local is written, used after its return or from a
/// lambda, and wherever a scope cannot live (as NP0007).
/// </remarks>
internal static class RentWithoutFinally
{
    /// <summary>
    /// The rent at <paramref name="declaration"/> and its return without a finally that a scope can replace, or null; with
    /// <paramref name="lease"/>, that a lease can replace because the array is held across an <c>await</c>.
    /// </summary>
    internal static RentScopedMatch? Match(IVariableDeclarationGroupOperation declaration, PoolApi api, bool lease = false)
    {
        if (declaration.Parent is not IBlockOperation block || declaration.Syntax is not LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0, Parent: BlockSyntax blockSyntax }
            || declaration.Declarations.Length != 1 || declaration.Declarations[0].Declarators.Length != 1
            || declaration.Declarations[0].Declarators[0] is not { Initializer.Value: var initial } declarator
            || MethodScan.Unwrap(initial) is not IInvocationOperation rent || !RentScopedAnalyzer.HasScopes(rent, api, lease))
        {
            return null;
        }

        ILocalSymbol local = declarator.Symbol;
        int start = block.Operations.IndexOf(declaration);
        int end = -1;
        for (int i = start + 1; i < block.Operations.Length && end < 0; i++)
        {
            if (block.Operations[i] is IExpressionStatementOperation { Operation: IInvocationOperation candidate } && api.IsReturn(candidate) && RentScopedAnalyzer.Returns(candidate, local))
            {
                end = i;
            }
        }

        if (end < start + 2 || block.Operations[end] is not IExpressionStatementOperation { Operation: IInvocationOperation giveBack } returnStatement
            || RentScopedAnalyzer.ClearValue(giveBack) is not { } clear || !RentScopedAnalyzer.SamePool(rent.Instance, giveBack.Instance)
            || (!lease && !RentScopedAnalyzer.CanHoldScope(declaration)) || HasJumps(blockSyntax)
            || block.Operations[start + 1].Syntax is not StatementSyntax first || block.Operations[end - 1].Syntax is not StatementSyntax last
            || declaration.SemanticModel?.AnalyzeControlFlow(first, last) is not { Succeeded: true, EndPointIsReachable: true, ExitPoints.IsEmpty: true }
            || !(lease ? RentAcrossAwait.Holds(local, block, TextSpan.FromBounds(first.SpanStart, last.Span.End), api, giveBack)
                : RangeUses.StayInside(local, block, TextSpan.FromBounds(first.SpanStart, last.Span.End), api, giveBack)))
        {
            return null;
        }

        return new RentScopedMatch(declaration, returnStatement, rent, local, clear, lease);
    }

    /// <summary>Whether <paramref name="block"/> has labels or <c>goto</c>s, which a <c>using</c> declaration may not be jumped over by.</summary>
    internal static bool HasJumps(BlockSyntax block)
        => block.DescendantNodes().Any(static n => n is LabeledStatementSyntax or GotoStatementSyntax);
}
