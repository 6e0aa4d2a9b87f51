using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>The syntax the <c>RentScoped</c> fixes share: the scope's rent, its name, the array's uses rewritten, and the statements that hold the scope.</summary>
internal static class ScopeSyntax
{
    /// <summary>The statement marked with <paramref name="target"/>, its block, operation, model and pools; null when it is gone.</summary>
    public static async Task<ScopeSite?> FindAsync(Document document, SyntaxAnnotation target, CancellationToken cancellationToken)
    {
        SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        SemanticModel? model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        return root is not null && model is not null
            && root.GetAnnotatedNodes(target).FirstOrDefault() is StatementSyntax { Parent: BlockSyntax block } statement
            && model.GetOperation(statement, cancellationToken) is { } operation && PoolApi.TryCreate(model.Compilation) is { } api
            ? new ScopeSite(root, model, api, statement, block, operation)
            : null;
    }

    /// <summary>One edit: the site's block as <paramref name="rewritten"/> with <paramref name="statements"/>, and <c>using NativePool;</c> when a scope took the place of <c>ArrayPool&lt;T&gt;.Shared</c>.</summary>
    public static Document Replace(Document document, ScopeSite site, BlockSyntax rewritten, IEnumerable<StatementSyntax> statements, bool addUsing)
    {
        SyntaxNode root = site.Root.ReplaceNode(site.Block, rewritten.WithStatements(SyntaxFactory.List(statements)));
        return document.WithSyntaxRoot(addUsing && root is CompilationUnitSyntax unit ? SharedArrayPoolCodeFixProvider.AddUsing(unit) : root);
    }

    /// <summary>
    /// <c>pool.RentScoped(n)</c> or <c>pool.RentLease(n)</c> for <paramref name="rent"/>, and whether it now comes from
    /// <c>StripedArrayPool&lt;T&gt;.Shared</c> in place of <c>ArrayPool&lt;T&gt;.Shared</c> (the file then needs <c>using NativePool;</c>).
    /// </summary>
    public static (ExpressionSyntax Scoped, bool FromArrayPoolShared)? RentScoped(IInvocationOperation rent, bool clearOnReturn, PoolApi api, bool lease = false)
    {
        if (rent.Syntax is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax rentAccess } syntax)
        {
            return null;
        }

        ArgumentListSyntax arguments = syntax.ArgumentList.WithoutTrivia();
        if (clearOnReturn)
        {
            arguments = arguments.AddArguments(SyntaxFactory.Argument(SyntaxFactory.LiteralExpression(SyntaxKind.TrueLiteralExpression))
                .WithNameColon(SyntaxFactory.NameColon("clearOnReturn")));
        }

        MemberAccessExpressionSyntax scopedAccess = rentAccess.WithName(SyntaxFactory.IdentifierName(lease ? "RentLease" : "RentScoped"));
        bool fromArrayPoolShared = RentScopedAnalyzer.IsSharedArrayPool(rent.Instance, api);
        if (fromArrayPoolShared && rentAccess.Expression is MemberAccessExpressionSyntax shared)
        {
            // ArrayPool<T>.Shared has no scopes: the scope comes from StripedArrayPool<T>.Shared, as NP0006 would swap it.
            scopedAccess = scopedAccess.WithExpression(SharedArrayPoolCodeFixProvider.ToStriped(shared));
        }

        return (syntax.WithExpression(scopedAccess).WithArgumentList(arguments).WithoutTrivia(), fromArrayPoolShared);
    }

    public static VariableDeclarationSyntax Variable(string name, ExpressionSyntax value)
        => SyntaxFactory.VariableDeclaration(
            SyntaxFactory.IdentifierName("var"),
            SyntaxFactory.SingletonSeparatedList(SyntaxFactory.VariableDeclarator(name).WithInitializer(SyntaxFactory.EqualsValueClause(value))));

    /// <summary>A name for the scope (<c>scope</c>, <c>scope2</c>, …) that no symbol in scope at <paramref name="at"/> and no identifier of its member has.</summary>
    public static string UniqueName(SemanticModel model, SyntaxNode at, bool lease = false)
    {
        HashSet<string> taken = [.. at.Ancestors().OfType<MemberDeclarationSyntax>().First().DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText)];
        string stem = lease ? "lease" : "scope";
        string name = stem;
        for (int i = 2; taken.Contains(name) || model.LookupSymbols(at.SpanStart, name: name).Length != 0; i++)
        {
            name = stem + i.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        return name;
    }

    /// <summary>
    /// The site's block with the array's uses in <paramref name="region"/> rewritten: <c>a.AsSpan(0, n)</c> (<c>AsMemory</c> for a lease) over a
    /// rented length nothing writes becomes <c>scope.Span</c> (<c>lease.Memory</c>), exactly <c>n</c> long; any other use <c>scope.Array</c>.
    /// </summary>
    public static BlockSyntax ReplaceUses(ScopeSite site, RentScopedMatch match, IReadOnlyList<SyntaxNode> region, string name)
    {
        SemanticModel model = site.Model;
        ExpressionSyntax length = ((InvocationExpressionSyntax)match.Rent.Syntax).ArgumentList.Arguments[0].Expression;
        Dictionary<SyntaxNode, SyntaxNode> replacements = [];
        bool lengthIsStable = length is LiteralExpressionSyntax
            || (region.Count != 0 && length is IdentifierNameSyntax && model.GetSymbolInfo(length).Symbol is { } symbol
                && model.AnalyzeDataFlow(region[0], region[region.Count - 1]) is { Succeeded: true } flow
                && !flow.WrittenInside.Contains(symbol, SymbolEqualityComparer.Default));
        foreach (IdentifierNameSyntax identifier in region.SelectMany(static node => node.DescendantNodesAndSelf().OfType<IdentifierNameSyntax>()))
        {
            if (SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier).Symbol, match.Local))
            {
                string? view = lengthIsStable ? FullView(identifier, length, match.Lease) : null;
                SyntaxNode target = view is not null ? identifier.Parent!.Parent! : identifier;
                replacements[target] = Member(name, view ?? "Array").WithTriviaFrom(target);
            }
        }

        return site.Block.ReplaceNodes(replacements.Keys, (original, _) => replacements[original]);
    }

    private static string? FullView(IdentifierNameSyntax identifier, ExpressionSyntax length, bool lease)
        => identifier.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: var method } access && access.Expression == identifier
            && (method == "AsSpan" || (lease && method == "AsMemory"))
            && access.Parent is InvocationExpressionSyntax { ArgumentList.Arguments: { Count: 2 } args }
            && args[0].Expression is LiteralExpressionSyntax { Token.ValueText: "0" }
            && SyntaxFactory.AreEquivalent(args[1].Expression, length)
                ? (method == "AsSpan" ? "Span" : "Memory")
                : null;

    public static MemberAccessExpressionSyntax Member(string scope, string member)
        => SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, SyntaxFactory.IdentifierName(scope), SyntaxFactory.IdentifierName(member));

    public static List<StatementSyntax> Hold(VariableDeclarationSyntax variable, IEnumerable<StatementSyntax> moved, bool asDeclaration, SyntaxTriviaList leadingTrivia)
    {
        List<StatementSyntax> statements = asDeclaration
            ? [SyntaxFactory.LocalDeclarationStatement(variable).WithUsingKeyword(SyntaxFactory.Token(SyntaxKind.UsingKeyword)), .. moved]
            : [SyntaxFactory.UsingStatement(variable, expression: null, SyntaxFactory.Block(moved))];
        statements[0] = statements[0].WithLeadingTrivia(leadingTrivia);
        return [.. statements.Select(static s => s.WithAdditionalAnnotations(Formatter.Annotation))];
    }

    /// <summary>
    /// Whether the statements after a scope's last use call for a <c>using</c> declaration: they only leave the block or
    /// give other arrays back, or read a local that <paramref name="moved"/> declares, which a <c>using</c> statement would hide.
    /// </summary>
    public static bool NeedsDeclaration(IReadOnlyList<StatementSyntax> following, IReadOnlyList<StatementSyntax> moved, SemanticModel model)
    {
        if (following.All(static s => s is ReturnStatementSyntax or ThrowStatementSyntax or BreakStatementSyntax or ContinueStatementSyntax
            || (s is ExpressionStatementSyntax { Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Return" } } })))
        {
            return true;
        }

        if (moved.Count == 0 || model.AnalyzeDataFlow(moved[0], moved[moved.Count - 1]) is not { Succeeded: true } inside || inside.VariablesDeclared.IsEmpty)
        {
            return false;
        }

        DataFlowAnalysis? after = model.AnalyzeDataFlow(following[0], following[following.Count - 1]);
        return after is not { Succeeded: true }
            || inside.VariablesDeclared.Any(v => after.ReadInside.Contains(v, SymbolEqualityComparer.Default) || after.WrittenInside.Contains(v, SymbolEqualityComparer.Default));
    }

    /// <summary>Whether lifting <paramref name="lifted"/> out of their nested block into <paramref name="block"/> would clash with a name declared elsewhere in it.</summary>
    public static bool LiftWouldClash(BlockSyntax block, IReadOnlyList<StatementSyntax> lifted)
    {
        HashSet<string> names = [.. lifted.SelectMany(static s => DeclaredNames(s, topLevelOnly: true))];
        if (names.Count == 0)
        {
            return false;
        }

        // The other statements of the block (not the one that holds the lifted ones), and the blocks inside the lifted ones.
        return block.Statements.Where(s => !lifted.Any(l => s.Span.Contains(l.Span))).Concat(lifted.SelectMany(static s => s.DescendantNodes().OfType<BlockSyntax>()))
            .SelectMany(static s => DeclaredNames(s, topLevelOnly: false)).Any(names.Contains);
    }

    private static IEnumerable<string> DeclaredNames(SyntaxNode node, bool topLevelOnly)
        => (topLevelOnly ? node.DescendantNodesAndSelf(descendIntoChildren: static n => n is not BlockSyntax and not AnonymousFunctionExpressionSyntax and not LocalFunctionStatementSyntax) : node.DescendantNodesAndSelf())
            .Select(declared => declared switch
            {
                VariableDeclaratorSyntax declarator => declarator.Identifier.ValueText,
                SingleVariableDesignationSyntax designation => designation.Identifier.ValueText,
                ParameterSyntax parameter when !topLevelOnly => parameter.Identifier.ValueText,
                ForEachStatementSyntax forEach => forEach.Identifier.ValueText,
                LocalFunctionStatementSyntax function => function.Identifier.ValueText,
                _ => null,
            })
            .OfType<string>();

    /// <summary><paramref name="next"/> with the blank lines and indentation of <paramref name="removed"/>, dropped before it, so a blank line before the return stays.</summary>
    public static StatementSyntax TakeLeadingTrivia(StatementSyntax next, StatementSyntax removed)
        => removed.GetLeadingTrivia().All(static t => t.IsKind(SyntaxKind.WhitespaceTrivia) || t.IsKind(SyntaxKind.EndOfLineTrivia))
            ? next.WithLeadingTrivia(removed.GetLeadingTrivia())
            : next;
}
