using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace NativePool.Analyzers;

/// <summary>Matches, for NP0014, <c>T[] a = pool.Rent(n); … pool.Return(a);</c> in one block, with no <c>try</c>/<c>finally</c>.</summary>
/// <remarks>
/// The return is the first statement of the block to give the array back, and no path leaves the statements between
/// early: the array is then returned exactly where the scope returns it, and also when one of them throws.
/// </remarks>
internal static class RentWithoutFinally
{
    /// <summary>The rent at <paramref name="declaration"/> and its return that a scope (with <paramref name="lease"/>, a lease) can replace, or null.</summary>
    internal static RentScopedMatch? Match(IVariableDeclarationGroupOperation declaration, PoolApi api, bool lease = false)
    {
        if (declaration.Parent is not IBlockOperation block || declaration.Syntax is not LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0, Parent: BlockSyntax blockSyntax }
            || RentScopedAnalyzer.SingleDeclarator(declaration) is not { Initializer.Value: var initial } declarator
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
                : RangeUses.Holders(local, block, TextSpan.FromBounds(first.SpanStart, last.Span.End), api, giveBack) is not null))
        {
            return null;
        }

        return new RentScopedMatch(declaration, returnStatement, rent, local, clear, lease);
    }

    /// <summary>Whether <paramref name="block"/> has labels or <c>goto</c>s: a <c>using</c> declaration may not be jumped over.</summary>
    internal static bool HasJumps(BlockSyntax block)
        => block.DescendantNodes().Any(static n => n is LabeledStatementSyntax or GotoStatementSyntax);
}
