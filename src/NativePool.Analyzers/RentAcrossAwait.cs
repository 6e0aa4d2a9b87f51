using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace NativePool.Analyzers;

/// <summary>
/// Decides, for NP0016, whether a rented array held across an <c>await</c>, where no scope can live, can be held by a
/// <c>RentLease</c> lease in place of its rent and return (the shapes of NP0007 and NP0014).
/// </summary>
/// <remarks>
/// Every call over the array or a view of it whose result can be awaited must be awaited where it is made: a task left
/// running would still read or write the array after the lease gave it back.
/// </remarks>
internal static class RentAcrossAwait
{
    public static bool Holds(ILocalSymbol local, IBlockOperation block, TextSpan range, PoolApi api, IOperation giveBack)
    {
        if (block.SemanticModel?.GetEnclosingSymbol(range.Start) is not IMethodSymbol { IsAsync: true }
            || RentScopedAnalyzer.InIterator(block.Syntax)
            || !block.Syntax.DescendantNodes(range).Any(n => range.Contains(n.Span) && IsAwait(n) && !InFunction(n, block.Syntax))
            || RangeUses.Holders(local, block, range, api, giveBack) is not { } holders)
        {
            return false;
        }

        return block.Descendants().OfType<IInvocationOperation>()
            .Where(call => range.Contains(call.Syntax.Span) && IsAwaitable(call.Type) && Mentions(call, holders))
            .All(IsAwaited);
    }

    private static bool IsAwait(SyntaxNode node) => node switch
    {
        AwaitExpressionSyntax => true,
        CommonForEachStatementSyntax forEach => forEach.AwaitKeyword.RawKind != 0,
        UsingStatementSyntax usingStatement => usingStatement.AwaitKeyword.RawKind != 0,
        LocalDeclarationStatementSyntax declaration => declaration.AwaitKeyword.RawKind != 0,
        _ => false,
    };

    internal static bool InFunction(SyntaxNode node, SyntaxNode block)
        => node.Ancestors().TakeWhile(a => a != block).Any(static a => a is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax);

    private static bool IsAwaitable(ITypeSymbol? type)
        => type?.GetMembers("GetAwaiter").OfType<IMethodSymbol>().Any(static m => !m.IsStatic && m.Parameters.IsEmpty) == true;

    private static bool Mentions(IInvocationOperation call, IReadOnlyCollection<ILocalSymbol> holders)
        => call.Descendants().OfType<ILocalReferenceOperation>().Any(r => holders.Contains(r.Local, SymbolEqualityComparer.Default));

    /// <summary>Whether the task of <paramref name="call"/> is awaited where it is made, directly or through <c>ConfigureAwait</c>.</summary>
    private static bool IsAwaited(IInvocationOperation call)
    {
        IOperation current = call;
        while (current.Parent is IConversionOperation or IInvocationOperation { TargetMethod.Name: "ConfigureAwait" })
        {
            if (current.Parent is IInvocationOperation configure && configure.Instance != current)
            {
                return false;
            }

            current = current.Parent;
        }

        return current.Parent is IAwaitOperation;
    }
}
