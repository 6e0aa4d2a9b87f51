using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace NativePool.Analyzers;

/// <summary>Matches, for NP0015, the <c>stackalloc</c>-or-rent of <see cref="StackallocOrRentMatch"/>.</summary>
/// <remarks>
/// The fix (<c>using var scope = c ? default : pool.RentScoped(n);</c>, then <c>scope.Span</c> in the rent's branch)
/// evaluates the condition twice, so it may read only locals, parameters, fields, constants and lengths.
/// </remarks>
internal static class StackallocOrRent
{
    private const int MaximumNesting = 6;

    /// <summary>The <c>stackalloc</c>-or-rent whose nullable array <paramref name="declaration"/> declares, or null.</summary>
    internal static StackallocOrRentMatch? Match(IVariableDeclarationGroupOperation declaration, PoolApi api)
    {
        if (declaration.Parent is not IBlockOperation block || declaration.Syntax is not LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0, Parent: BlockSyntax blockSyntax }
            || RentScopedAnalyzer.SingleDeclarator(declaration) is not { Symbol.Type: IArrayTypeSymbol, Initializer.Value.ConstantValue: { HasValue: true, Value: null } } declarator
            || FindUses(block, declarator.Symbol, api) is not (ISimpleAssignmentOperation assignment, IConditionalOperation release, IInvocationOperation giveBack)
            || release.WhenFalse is not null || Single(release.WhenTrue) is not IExpressionStatementOperation { Operation: var released } || released != giveBack
            || MethodScan.Unwrap(assignment.Value) is not IInvocationOperation rent || !RentScopedAnalyzer.HasScopes(rent, api)
            || RentScopedAnalyzer.ClearValue(giveBack) is not { } clear || !RentScopedAnalyzer.SamePool(rent.Instance, giveBack.Instance)
            || !RentScopedAnalyzer.CanHoldScope(declaration) || RentWithoutFinally.HasJumps(blockSyntax))
        {
            return null;
        }

        // The rent is one branch of a conditional whose other is a stackalloc, in the initializer of a span.
        IOperation branch = MethodScan.Outermost(assignment);
        if (branch.Parent is not IConditionalOperation { WhenFalse: { } whenFalse } choice || choice.Condition == branch
            || Unparenthesized((choice.WhenTrue == branch ? whenFalse : choice.WhenTrue).Syntax) is not (StackAllocArrayCreationExpressionSyntax or ImplicitStackAllocArrayCreationExpressionSyntax)
            || !IsStable(choice.Condition) || SpanDeclaration(choice) is not { } span || span.Parent is not IBlockOperation spanBlock)
        {
            return null;
        }

        int rentedIndex = block.Operations.IndexOf(declaration);
        int spanIndex = block.Operations.IndexOf(span);
        ITryOperation? tryOperation = release.Parent is IBlockOperation { Operations.Length: 1, Parent: ITryOperation enclosing } finallyBlock
            && enclosing.Finally == finallyBlock && enclosing.Catches.IsEmpty && enclosing.Parent == block ? enclosing : null;
        TextSpan range;
        if (tryOperation is null)
        {
            // The release is a statement of the block after the span's, and nothing leaves between them early.
            int releaseIndex = block.Operations.IndexOf(release);
            if (spanIndex <= rentedIndex || releaseIndex <= spanIndex
                || declaration.SemanticModel?.AnalyzeControlFlow(span.Syntax, block.Operations[releaseIndex - 1].Syntax) is not { Succeeded: true, EndPointIsReachable: true, ExitPoints.IsEmpty: true })
            {
                return null;
            }

            range = TextSpan.FromBounds(span.Syntax.SpanStart, block.Operations[releaseIndex - 1].Syntax.Span.End);
        }
        else
        {
            // The span is declared in the try, or just before it.
            int tryIndex = block.Operations.IndexOf(tryOperation);
            if (tryIndex <= rentedIndex || !(spanBlock == tryOperation.Body || (spanIndex > rentedIndex && spanIndex == tryIndex - 1)))
            {
                return null;
            }

            range = TextSpan.FromBounds(span.Syntax.SpanStart, tryOperation.Body.Syntax.Span.End);
        }

        // No span declared there (the span itself, or a slice of it) is read after the return.
        return block.Descendants().OfType<IVariableDeclaratorOperation>().Select(static d => d.Symbol).Any(l => l.Type.IsRefLikeType
            && l.DeclaringSyntaxReferences.Any(r => range.Contains(r.Span)) && !RangeUses.References(block, l).All(r => range.Contains(r.Syntax.Span)))
            ? null
            : new StackallocOrRentMatch(span, choice, branch, rent, release, tryOperation, clear);
    }

    /// <summary>The rent's assignment, the <c>if</c> that tests the local for null, and the return; null if the local has other uses.</summary>
    private static (ISimpleAssignmentOperation Assignment, IConditionalOperation Release, IInvocationOperation GiveBack)? FindUses(IBlockOperation block, ILocalSymbol rented, PoolApi api)
    {
        ISimpleAssignmentOperation? assignment = null;
        IConditionalOperation? release = null;
        IInvocationOperation? giveBack = null;
        foreach (ILocalReferenceOperation reference in RangeUses.References(block, rented))
        {
            IOperation outer = MethodScan.Outermost(reference);
            if (assignment is null && outer.Parent is ISimpleAssignmentOperation written && written.Target == outer)
            {
                assignment = written;
            }
            else if (release is null && NullTest(outer) is { } test)
            {
                release = test;
            }
            else if (giveBack is null && outer.Parent is IArgumentOperation { Parent: IInvocationOperation call } && api.IsReturn(call) && RentScopedAnalyzer.Returns(call, rented))
            {
                giveBack = call;
            }
            else
            {
                return null;
            }
        }

        return assignment is null || release is null || giveBack is null ? null : (assignment, release, giveBack);
    }

    /// <summary>The <c>if</c> whose condition is <c>local != null</c> or <c>local is not null</c>.</summary>
    private static IConditionalOperation? NullTest(IOperation local)
    {
        IOperation? test = local.Parent switch
        {
            IBinaryOperation { OperatorKind: BinaryOperatorKind.NotEquals } binary when (binary.LeftOperand == local ? binary.RightOperand : binary.LeftOperand).ConstantValue is { HasValue: true, Value: null } => binary,
            IIsPatternOperation { Pattern: INegatedPatternOperation { Pattern: IConstantPatternOperation { Value.ConstantValue: { HasValue: true, Value: null } } } } pattern => pattern,
            _ => null,
        };
        return test?.Parent is IConditionalOperation { IsRef: false } conditional && conditional.Condition == test && conditional.Syntax is IfStatementSyntax ? conditional : null;
    }

    private static IOperation? Single(IOperation operation) => operation is IBlockOperation block ? (block.Operations.Length == 1 ? block.Operations[0] : null) : operation;

    private static SyntaxNode Unparenthesized(SyntaxNode syntax) => syntax is ParenthesizedExpressionSyntax parenthesized ? Unparenthesized(parenthesized.Expression) : syntax;

    /// <summary>The declaration, a statement, of the span whose initializer holds <paramref name="choice"/>.</summary>
    private static IVariableDeclarationGroupOperation? SpanDeclaration(IOperation choice)
    {
        IOperation current = choice;
        for (int i = 0; i < MaximumNesting && current.Parent is { } parent && parent is not IVariableInitializerOperation; i++)
        {
            if (parent.Syntax is not (ExpressionSyntax or ArgumentSyntax or BracketedArgumentListSyntax))
            {
                return null;
            }

            current = parent;
        }

        return current.Parent is IVariableInitializerOperation { Parent: IVariableDeclaratorOperation { Symbol.Type.IsRefLikeType: true, Parent: IVariableDeclarationOperation { Declarators.Length: 1, Parent: IVariableDeclarationGroupOperation { Declarations.Length: 1 } group } } }
            && group.Syntax is LocalDeclarationStatementSyntax { UsingKeyword.RawKind: 0 } ? group : null;
    }

    /// <summary>Whether evaluating <paramref name="condition"/> twice in a row gives the same value and has no effect.</summary>
    private static bool IsStable(IOperation condition) => condition switch
    {
        { ConstantValue.HasValue: true } => true,
        ILocalReferenceOperation or IParameterReferenceOperation or IInstanceReferenceOperation => true,
        IFieldReferenceOperation field => field.Instance is null || IsStable(field.Instance),
        IPropertyReferenceOperation { Property.Name: "Length" or "Count", Arguments.Length: 0 } property => property.Instance is not null && IsStable(property.Instance),
        IConversionOperation conversion => IsStable(conversion.Operand),
        IUnaryOperation unary => IsStable(unary.Operand),
        IBinaryOperation binary => IsStable(binary.LeftOperand) && IsStable(binary.RightOperand),
        _ => false,
    };
}
