using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Turns the rents <see cref="RentScopedAnalyzer"/> reports into <c>using var scope = pool.RentScoped(n);</c>: uses of
/// the array become <c>scope.Array</c>, and <c>array.AsSpan(0, n)</c> over the rented length becomes <c>scope.Span</c>.
/// A rent from <c>ArrayPool&lt;T&gt;.Shared</c> becomes a scope of <c>StripedArrayPool&lt;T&gt;.Shared</c> (with
/// <c>using NativePool;</c>). NP0007 drops the try/finally, NP0014 the return (the array then also goes back when the
/// code before it throws), NP0015 the nullable array, its null test and its return, with a scope that is
/// <see langword="default"/> where the <c>stackalloc</c> is taken. NP0016, the first two shapes with the array held
/// across an <c>await</c>, gets <c>using var lease = pool.RentLease(n);</c> in the same way, with
/// <c>array.AsMemory(0, n)</c> over the rented length as <c>lease.Memory</c>.
/// </summary>
/// <remarks>
/// When statements follow in the block that do more than leave it (or give other arrays back), a <c>using</c>
/// statement keeps the array's return where it was; otherwise a <c>using</c> declaration returns it at the end of the
/// block. Each site is rebuilt in one replacement of its block, from the block's own statements. Fix All (the IDE's,
/// and <c>dotnet format analyzers</c>) marks every site its diagnostics name, then rewrites them one at a time in
/// document order, each against the document as the earlier rewrites left it.
/// </remarks>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(RentScopedCodeFixProvider))]
[Shared]
public sealed partial class RentScopedCodeFixProvider : PoolCodeFixProvider
{
    /// <inheritdoc/>
    public override ImmutableArray<string> FixableDiagnosticIds { get; } =
        ImmutableArray.Create(DiagnosticIds.UseRentScoped, DiagnosticIds.UseRentScopedWithoutFinally, DiagnosticIds.UseRentScopedBesideStackalloc, DiagnosticIds.UseRentLease);

    private protected override string TitleOf(string diagnosticId) => diagnosticId switch
    {
        DiagnosticIds.UseRentScopedWithoutFinally => "Use RentScoped (the array now also goes back to the pool when the code before its return throws)",
        DiagnosticIds.UseRentScopedBesideStackalloc => "Use a RentScoped scope, default beside the stackalloc",
        DiagnosticIds.UseRentLease => "Use RentLease (where the return had no finally, the array now also goes back to the pool when the code before it throws)",
        _ => "Use RentScoped",
    };

    /// <summary>Marks the site of each diagnostic, then rewrites them one at a time in document order.</summary>
    private protected override Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken)
        => FixOneAtATimeAsync(document, diagnostics, static (root, diagnostic) => Site(root, diagnostic), FixOneAsync, cancellationToken);

    /// <summary>The statement a fix starts from: the try/finally of NP0007 (and of NP0016 over one), or the declaration the diagnostic is reported on.</summary>
    private static StatementSyntax? Site(SyntaxNode root, Diagnostic diagnostic)
        => diagnostic.Id == DiagnosticIds.UseRentScoped || (diagnostic.Id == DiagnosticIds.UseRentLease && diagnostic.AdditionalLocations.Count != 0)
            ? (diagnostic.AdditionalLocations.Count != 0 ? root.FindNode(diagnostic.AdditionalLocations[0].SourceSpan) as TryStatementSyntax : null)
            : root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true).FirstAncestorOrSelf<LocalDeclarationStatementSyntax>();

    private static async Task<Document> FixOneAsync(Document document, SyntaxAnnotation target, CancellationToken cancellationToken)
        => await ScopeSyntax.FindAsync(document, target, cancellationToken).ConfigureAwait(false) switch
        {
            { Operation: ITryOperation } site => FixTry(document, site),
            { Operation: IVariableDeclarationGroupOperation declaration } site
                when (RentWithoutFinally.Match(declaration, site.Api) ?? RentWithoutFinally.Match(declaration, site.Api, lease: true)) is { } match => FixWithoutFinally(document, site, match),
            { Operation: IVariableDeclarationGroupOperation declaration } site when StackallocOrRent.Match(declaration, site.Api) is { } match => FixBesideStackalloc(document, site, match),
            _ => document,
        };

    private static Document FixTry(Document document, ScopeSite site)
    {
        if (site is not { Statement: TryStatementSyntax tryStatement, Operation: ITryOperation tryOperation }
            || (RentScopedAnalyzer.Match(tryOperation, site.Api) ?? RentScopedAnalyzer.Match(tryOperation, site.Api, lease: true)) is not { } match
            || match.Declaration.Syntax is not LocalDeclarationStatementSyntax declaration
            || ScopeSyntax.RentScoped(match.Rent, match.ClearOnReturn, site.Api, match.Lease) is not (ExpressionSyntax scoped, bool fromArrayPoolShared))
        {
            return document;
        }

        BlockSyntax block = site.Block;
        string name = ScopeSyntax.UniqueName(site.Model, tryStatement, match.Lease);
        BlockSyntax rewritten = ScopeSyntax.ReplaceUses(site, match, [tryStatement.Block], name);
        int index = block.Statements.IndexOf(tryStatement);
        var body = ((TryStatementSyntax)rewritten.Statements[index]).Block;
        List<StatementSyntax> replacement = ScopeSyntax.Hold(
            ScopeSyntax.Variable(name, scoped), body.Statements, asDeclaration: index == block.Statements.Count - 1 && !ScopeSyntax.LiftWouldClash(block, tryStatement.Block.Statements), declaration.GetLeadingTrivia());
        if (replacement.Count == 1)
        {
            // A using statement keeps the try's block, braces and all.
            replacement[0] = ((UsingStatementSyntax)replacement[0]).WithStatement(body).WithAdditionalAnnotations(Formatter.Annotation);
        }

        return ScopeSyntax.Replace(document, site, rewritten, rewritten.Statements.RemoveAt(index).RemoveAt(index - 1).InsertRange(index - 1, replacement), fromArrayPoolShared);
    }
}
