using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace NativePool.Analyzers;

/// <summary>
/// Decides whether a rented array stays inside a range of statements: every use of its local, and of every local that
/// takes it or a view of it, lies in the range, outside lambdas, local functions and queries, and hands it to nothing that may keep it.
/// </summary>
/// <remarks>
/// Kept: returned, stored, passed by <c>ref</c> or <c>out</c>, given back, or passed as a type parameter or a type neither an
/// array nor a span of a type not known to leave arrays alone. A method that takes an array parameter
/// (<c>stream.Write(a, 0, n)</c>) is taken to use it and let it go, as the BCL's methods do.
/// </remarks>
internal sealed class RangeUses(IBlockOperation block, TextSpan range, PoolApi api, IOperation? giveBack)
{
    private const int MaximumDepth = 4;

    private readonly HashSet<ILocalSymbol> _visited = new(SymbolEqualityComparer.Default);

    /// <summary>
    /// The locals that hold the array of <paramref name="local"/> or a view of it when it stays inside <paramref name="range"/>
    /// and is never written (its return, <paramref name="giveBack"/>, allowed), else null.
    /// </summary>
    public static IReadOnlyCollection<ILocalSymbol>? Holders(ILocalSymbol local, IBlockOperation block, TextSpan range, PoolApi api, IOperation? giveBack)
    {
        RangeUses uses = new(block, range, api, giveBack);
        return uses.LocalStaysInside(local, depth: 0) ? uses._visited : null;
    }

    public static IEnumerable<ILocalReferenceOperation> References(IOperation root, ILocalSymbol local)
        => root.Descendants().OfType<ILocalReferenceOperation>().Where(r => SymbolEqualityComparer.Default.Equals(r.Local, local));

    private bool LocalStaysInside(ILocalSymbol local, int depth)
    {
        if (!_visited.Add(local))
        {
            return true;
        }

        if (depth > MaximumDepth || local.IsRef)
        {
            return false;
        }

        foreach (ILocalReferenceOperation reference in References(block, local))
        {
            if (depth == 0 && giveBack is not null && giveBack.Syntax.Span.Contains(reference.Syntax.Span))
            {
                continue;
            }

            if (!range.Contains(reference.Syntax.Span)
                || reference.Syntax.Ancestors().TakeWhile(a => a != block.Syntax).Any(static a => a is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or QueryExpressionSyntax))
            {
                return false;
            }

            IOperation outer = MethodScan.Outermost(reference);
            bool written = (outer.Parent is IAssignmentOperation assignment && assignment.Target == outer) || outer.Parent is IIncrementOrDecrementOperation;
            if (written ? depth == 0 : !ValueStaysInside(reference, depth))
            {
                return false;
            }
        }

        return true;
    }

    private bool ValueStaysInside(IOperation value, int depth)
    {
        IOperation current = value;
        while (current.Parent is { } parent)
        {
            switch (parent)
            {
                case IConversionOperation:
                case IConditionalOperation conditional when conditional.Condition != current:
                case ICoalesceOperation:
                case IInvocationOperation view when view.Instance == current && MethodScan.IsViewMethod(view.TargetMethod):
                case IPropertyReferenceOperation { Property.Name: "Span" or "Memory" } property when property.Instance == current:
                    current = parent;
                    continue;
                case IInvocationOperation call when call.Instance == current:
                case IPropertyReferenceOperation property when property.Instance == current:
                case IArrayElementReferenceOperation element when element.ArrayReference == current:
                case IBinaryOperation or IIsNullOperation or IIsPatternOperation or IIsTypeOperation or IExpressionStatementOperation or IForEachLoopOperation:
                    return true;
                case IArgumentOperation { Parent: IInvocationOperation extension } argument
                    when extension.Instance is null && MethodScan.IsViewMethod(extension.TargetMethod) && extension.Arguments.Length != 0 && extension.Arguments[0] == argument:
                    current = extension;
                    continue;
                case IArgumentOperation { Parent: IObjectCreationOperation creation } argument when argument.Parameter is { RefKind: RefKind.None } parameter:
                    if (parameter.Type.IsRefLikeType || creation.Type?.SpecialType == SpecialType.System_String)
                    {
                        return true;
                    }

                    // The new object may hold the array: follow it.
                    current = creation;
                    continue;
                case IArgumentOperation { Parent: IInvocationOperation call } argument:
                    return !api.IsReturn(call) && CannotKeep(argument);
                case ISimpleAssignmentOperation assignment when assignment.Value == current:
                    return assignment.Target is ILocalReferenceOperation target && LocalStaysInside(target.Local, depth + 1);
                case IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }:
                    return LocalStaysInside(declarator.Symbol, depth + 1);
                default:
                    return false;
            }
        }

        return false;
    }

    private static bool CannotKeep(IArgumentOperation argument)
    {
        if (argument.Parameter is not { RefKind: RefKind.None or RefKind.In } parameter)
        {
            return false;
        }

        if (parameter.Type.IsRefLikeType)
        {
            return true;
        }

        if (parameter.OriginalDefinition.Type is ITypeParameterSymbol)
        {
            return false;
        }

        return parameter.Type is IArrayTypeSymbol || MethodScan.IsNonOwning(parameter.ContainingSymbol?.ContainingType);
    }
}
