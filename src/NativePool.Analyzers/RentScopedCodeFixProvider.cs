using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
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
/// at a time in document order, each against the document as the earlier rewrites left it.
/// </remarks>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(RentScopedCodeFixProvider))]
[Shared]
public sealed class RentScopedCodeFixProvider : PoolCodeFixProvider
{
    /// <inheritdoc/>
    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(DiagnosticIds.UseRentScoped);

    private protected override string Title => "Use RentScoped";

    /// <summary>Marks the try/finally of each diagnostic, then rewrites them one at a time in document order.</summary>
    private protected override Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken)
        => FixOneAtATimeAsync(
            document,
            diagnostics,
            static (root, diagnostic) => diagnostic.AdditionalLocations.Count != 0 ? root.FindNode(diagnostic.AdditionalLocations[0].SourceSpan) as TryStatementSyntax : null,
            FixOneAsync,
            cancellationToken);

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
            || ScopeSyntax.RentScoped(match.Rent, match.ClearOnReturn, api) is not (ExpressionSyntax scoped, bool fromArrayPoolShared)
            || match.Rent.Syntax is not InvocationExpressionSyntax rent)
        {
            return document;
        }

        string name = ScopeSyntax.UniqueName(model, tryStatement);
        Dictionary<SyntaxNode, SyntaxNode> replacements = [];
        ScopeSyntax.ReplaceUses([tryStatement.Block], model, match.Local, rent.ArgumentList.Arguments[0].Expression, name, replacements, cancellationToken);
        BlockSyntax rewritten = block.ReplaceNodes(replacements.Keys, (original, _) => replacements[original]);
        int index = block.Statements.IndexOf(tryStatement);
        var body = ((TryStatementSyntax)rewritten.Statements[index]).Block;
        List<StatementSyntax> replacement = ScopeSyntax.Hold(
            ScopeSyntax.Variable(name, scoped), body.Statements, asDeclaration: index == block.Statements.Count - 1, declaration.GetLeadingTrivia());
        if (replacement.Count == 1)
        {
            // A using statement keeps the try's block, braces and all.
            replacement[0] = ((UsingStatementSyntax)replacement[0]).WithStatement(body).WithAdditionalAnnotations(Formatter.Annotation);
        }

        SyntaxList<StatementSyntax> statements = rewritten.Statements.RemoveAt(index).RemoveAt(index - 1).InsertRange(index - 1, replacement);
        root = root.ReplaceNode(block, rewritten.WithStatements(statements));
        return document.WithSyntaxRoot(fromArrayPoolShared && root is CompilationUnitSyntax unit ? SharedArrayPoolCodeFixProvider.AddUsing(unit) : root);
    }
}
