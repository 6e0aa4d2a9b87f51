using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Turns a rent with a try/finally return into <c>using var scope = pool.RentScoped(n);</c> (NP0007): uses of the array
/// become <c>scope.Array</c>, and <c>array.AsSpan(0, n)</c> over the rented length becomes <c>scope.Span</c>. A rent from
/// <c>ArrayPool&lt;T&gt;.Shared</c> becomes a scope of <c>StripedArrayPool&lt;T&gt;.Shared</c> (with <c>using NativePool;</c>).
/// </summary>
/// <remarks>
/// When statements follow the try/finally in its block, a <c>using</c> statement keeps the array's return where the
/// finally put it; otherwise a <c>using</c> declaration returns it at the same point, the end of the block. Fix All
/// (the IDE's, and <c>dotnet format analyzers</c>) marks every try/finally its diagnostics name, then rewrites them one
/// at a time from the last in the document, each against the document as the earlier rewrites left it.
/// </remarks>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(RentScopedCodeFixProvider))]
[Shared]
public sealed class RentScopedCodeFixProvider : PoolCodeFixProvider
{
    /// <inheritdoc/>
    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(DiagnosticIds.UseRentScoped);

    private const string TargetAnnotationKind = "NativePool.RentScopedTarget";

    private protected override string Title => "Use RentScoped";

    /// <summary>Marks the try/finally of each diagnostic, then rewrites them one at a time, the last in the document first.</summary>
    private protected override async Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }

        List<TryStatementSyntax> targets = [];
        foreach (Diagnostic diagnostic in diagnostics)
        {
            if (diagnostic.AdditionalLocations.Count != 0 && root.FindNode(diagnostic.AdditionalLocations[0].SourceSpan) is TryStatementSyntax target)
            {
                targets.Add(target);
            }
        }

        // One annotation per target, numbered in document order, so each is found again after the others' rewrites.
        List<TryStatementSyntax> ordered = [.. targets.Distinct().OrderBy(static t => t.SpanStart)];
        var annotations = ordered.Select((_, i) => new SyntaxAnnotation(TargetAnnotationKind, i.ToString(System.Globalization.CultureInfo.InvariantCulture))).ToList();
        root = root.ReplaceNodes(ordered, (original, rewritten) => rewritten.WithAdditionalAnnotations(annotations[ordered.IndexOf(original)]));
        document = document.WithSyntaxRoot(root);
        for (int i = annotations.Count - 1; i >= 0; i--)
        {
            document = await FixOneAsync(document, annotations[i], cancellationToken).ConfigureAwait(false);
        }

        return document;
    }

    private static async Task<Document> FixOneAsync(Document document, SyntaxAnnotation target, CancellationToken cancellationToken)
    {
        SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        SemanticModel? model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || model is null
            || root.GetAnnotatedNodes(target).FirstOrDefault() is not TryStatementSyntax tryStatement
            || tryStatement.Parent is not BlockSyntax block
            || model.GetOperation(tryStatement, cancellationToken) is not ITryOperation tryOperation
            || PoolApi.TryCreate(model.Compilation) is not { } api
            || RentScopedAnalyzer.Match(tryOperation, api) is not { } match
            || match.Declaration.Syntax is not LocalDeclarationStatementSyntax declaration
            || match.Rent.Syntax is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax rentAccess } rent)
        {
            return document;
        }

        string name = UniqueName(model, tryStatement);
        ArgumentListSyntax arguments = rent.ArgumentList;
        if (match.ClearOnReturn)
        {
            arguments = arguments.AddArguments(SyntaxFactory.Argument(SyntaxFactory.LiteralExpression(SyntaxKind.TrueLiteralExpression))
                .WithNameColon(SyntaxFactory.NameColon("clearOnReturn")));
        }

        MemberAccessExpressionSyntax scopedAccess = rentAccess.WithName(SyntaxFactory.IdentifierName("RentScoped"));
        bool fromArrayPoolShared = RentScopedAnalyzer.IsSharedArrayPool(match.Rent.Instance, api);
        if (fromArrayPoolShared && rentAccess.Expression is MemberAccessExpressionSyntax shared)
        {
            // ArrayPool<T>.Shared has no scopes: the scope comes from StripedArrayPool<T>.Shared, as NP0006 would swap it.
            scopedAccess = scopedAccess.WithExpression(SharedArrayPoolCodeFixProvider.ToStriped(shared));
        }

        ExpressionSyntax scoped = rent.WithExpression(scopedAccess).WithArgumentList(arguments);
        VariableDeclarationSyntax variable = SyntaxFactory.VariableDeclaration(
            SyntaxFactory.IdentifierName("var"),
            SyntaxFactory.SingletonSeparatedList(SyntaxFactory.VariableDeclarator(name).WithInitializer(SyntaxFactory.EqualsValueClause(scoped))));

        BlockSyntax body = RewriteUses(tryStatement.Block, model, match, rent.ArgumentList.Arguments[0].Expression, name, cancellationToken);
        int index = block.Statements.IndexOf(tryStatement);
        List<StatementSyntax> replacement;
        if (index == block.Statements.Count - 1)
        {
            replacement = [SyntaxFactory.LocalDeclarationStatement(variable).WithUsingKeyword(SyntaxFactory.Token(SyntaxKind.UsingKeyword)), .. body.Statements];
        }
        else
        {
            replacement = [SyntaxFactory.UsingStatement(variable, expression: null, body)];
        }

        replacement[0] = replacement[0].WithLeadingTrivia(declaration.GetLeadingTrivia());
        SyntaxList<StatementSyntax> statements = block.Statements;
        statements = statements.RemoveAt(index).RemoveAt(index - 1).InsertRange(index - 1, replacement.Select(s => s.WithAdditionalAnnotations(Formatter.Annotation)));
        root = root.ReplaceNode(block, block.WithStatements(statements));
        return document.WithSyntaxRoot(fromArrayPoolShared && root is CompilationUnitSyntax unit ? SharedArrayPoolCodeFixProvider.AddUsing(unit) : root);
    }

    private static BlockSyntax RewriteUses(BlockSyntax body, SemanticModel model, RentScopedMatch match, ExpressionSyntax length, string name, CancellationToken cancellationToken)
    {
        bool lengthIsStable = length is LiteralExpressionSyntax
            || (length is IdentifierNameSyntax && model.GetSymbolInfo(length, cancellationToken).Symbol is { } symbol
                && !model.AnalyzeDataFlow(body)!.WrittenInside.Contains(symbol, SymbolEqualityComparer.Default));
        List<SyntaxNode> targets = [];
        foreach (IdentifierNameSyntax identifier in body.DescendantNodes().OfType<IdentifierNameSyntax>())
        {
            if (SymbolEqualityComparer.Default.Equals(model.GetSymbolInfo(identifier, cancellationToken).Symbol, match.Local))
            {
                targets.Add(IsFullSpan(identifier, length, lengthIsStable) ? identifier.Parent!.Parent! : identifier);
            }
        }

        ExpressionSyntax scope = SyntaxFactory.IdentifierName(name);
        return body.ReplaceNodes(targets, (original, _) => SyntaxFactory.MemberAccessExpression(
                SyntaxKind.SimpleMemberAccessExpression, scope, SyntaxFactory.IdentifierName(original is IdentifierNameSyntax ? "Array" : "Span"))
            .WithTriviaFrom(original));
    }

    /// <summary>Whether <paramref name="identifier"/> is <c>a</c> in <c>a.AsSpan(0, n)</c>, with the rented length <c>n</c>.</summary>
    private static bool IsFullSpan(IdentifierNameSyntax identifier, ExpressionSyntax length, bool lengthIsStable)
        => lengthIsStable
            && identifier.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "AsSpan" } access && access.Expression == identifier
            && access.Parent is InvocationExpressionSyntax { ArgumentList.Arguments: { Count: 2 } args }
            && args[0].Expression is LiteralExpressionSyntax { Token.ValueText: "0" }
            && SyntaxFactory.AreEquivalent(args[1].Expression, length);

    private static string UniqueName(SemanticModel model, SyntaxNode at)
    {
        HashSet<string> taken = [.. at.Ancestors().OfType<MemberDeclarationSyntax>().First().DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText)];
        string name = "scope";
        for (int i = 2; taken.Contains(name) || model.LookupSymbols(at.SpanStart, name: name).Length != 0; i++)
        {
            name = "scope" + i.ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        return name;
    }
}
