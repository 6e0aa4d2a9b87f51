using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Turns a rent returned without a try/finally into <c>using var scope = pool.RentScoped(n);</c> (NP0014): the statements
/// between stay where they are, with uses of the array as <c>scope.Array</c> (<c>scope.Span</c> for
/// <c>array.AsSpan(0, n)</c>), and the return goes away. The array now also goes back when one of them throws.
/// </summary>
/// <remarks>
/// When statements that do more than leave the block or return other arrays follow the return, and read no local the
/// statements between declare, a <c>using</c> statement around those statements gives the array back where the return
/// did; otherwise a <c>using</c> declaration gives it back at the end of the block. The block is rebuilt in one
/// replacement, from its own statements.
/// </remarks>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(RentWithoutFinallyCodeFixProvider))]
[Shared]
public sealed class RentWithoutFinallyCodeFixProvider : PoolCodeFixProvider
{
    /// <inheritdoc/>
    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(DiagnosticIds.UseRentScopedWithoutFinally);

    private protected override string Title => "Use RentScoped (the array now also goes back to the pool when the code before its return throws)";

    /// <summary>Marks the rent of each diagnostic, then rewrites them one at a time in document order.</summary>
    private protected override Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken)
        => FixOneAtATimeAsync(document, diagnostics, static (root, diagnostic) => Declaration(root, diagnostic), FixOneAsync, cancellationToken);

    /// <summary>The local declaration statement a diagnostic is reported on.</summary>
    internal static LocalDeclarationStatementSyntax? Declaration(SyntaxNode root, Diagnostic diagnostic)
        => root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true).FirstAncestorOrSelf<LocalDeclarationStatementSyntax>();

    private static async Task<Document> FixOneAsync(Document document, SyntaxAnnotation target, CancellationToken cancellationToken)
    {
        SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        SemanticModel? model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || model is null
            || root.GetAnnotatedNodes(target).FirstOrDefault() is not LocalDeclarationStatementSyntax declaration
            || declaration.Parent is not BlockSyntax block
            || model.GetOperation(declaration, cancellationToken) is not IVariableDeclarationGroupOperation operation
            || PoolApi.TryCreate(model.Compilation) is not { } api
            || RentWithoutFinallyAnalyzer.Match(operation, api) is not { } match
            || match.GiveBack.Syntax is not StatementSyntax giveBack
            || ScopeSyntax.RentScoped(match.Rent, match.ClearOnReturn, api) is not (ExpressionSyntax scoped, bool fromArrayPoolShared)
            || match.Rent.Syntax is not InvocationExpressionSyntax rent)
        {
            return document;
        }

        int start = block.Statements.IndexOf(declaration);
        int end = block.Statements.IndexOf(giveBack);
        List<StatementSyntax> moved = [.. block.Statements.Skip(start + 1).Take(end - start - 1)];
        List<StatementSyntax> following = [.. block.Statements.Skip(end + 1)];
        bool asDeclaration = following.Count == 0 || ScopeSyntax.NeedsDeclaration(following, moved, model);

        string name = ScopeSyntax.UniqueName(model, declaration);
        Dictionary<SyntaxNode, SyntaxNode> replacements = [];
        ScopeSyntax.ReplaceUses(moved, model, match.Local, rent.ArgumentList.Arguments[0].Expression, name, replacements, cancellationToken);
        BlockSyntax rewritten = block.ReplaceNodes(replacements.Keys, (original, _) => replacements[original]);

        List<StatementSyntax> statements = [.. rewritten.Statements.Take(start)];
        statements.AddRange(ScopeSyntax.Hold(ScopeSyntax.Variable(name, scoped), rewritten.Statements.Skip(start + 1).Take(end - start - 1), asDeclaration, declaration.GetLeadingTrivia()));
        if (following.Count != 0)
        {
            statements.Add(ScopeSyntax.TakeLeadingTrivia(rewritten.Statements[end + 1], giveBack));
            statements.AddRange(rewritten.Statements.Skip(end + 2));
        }

        root = root.ReplaceNode(block, rewritten.WithStatements(new SyntaxList<StatementSyntax>(statements)));
        return document.WithSyntaxRoot(fromArrayPoolShared && root is CompilationUnitSyntax unit ? SharedArrayPoolCodeFixProvider.AddUsing(unit) : root);
    }
}
