using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;

namespace NativePool.Analyzers;

/// <summary>A code fix that offers one action per diagnostic, and fixes all of a document's diagnostics in one edit.</summary>
public abstract class PoolCodeFixProvider : CodeFixProvider
{
    private const string AnnotationKind = "NativePool.FixTarget";

    private readonly FixAll _fixAll;

    private protected PoolCodeFixProvider() => _fixAll = new FixAll(this);

    /// <summary>The title of the action that fixes a diagnostic of <paramref name="diagnosticId"/>, also its equivalence key.</summary>
    private protected abstract string TitleOf(string diagnosticId);

    /// <inheritdoc/>
    public sealed override FixAllProvider GetFixAllProvider() => _fixAll;

    /// <inheritdoc/>
    public sealed override Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        foreach (Diagnostic diagnostic in context.Diagnostics)
        {
            string title = TitleOf(diagnostic.Id);
            context.RegisterCodeFix(CodeAction.Create(title, token => FixAllAsync(context.Document, [diagnostic], token), equivalenceKey: title), diagnostic);
        }

        return Task.CompletedTask;
    }

    /// <summary>The document with every one of <paramref name="diagnostics"/> fixed.</summary>
    private protected abstract Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken);

    /// <summary>
    /// Marks the node of each diagnostic that <paramref name="target"/> finds, then fixes them one at a time in document
    /// order, each with <paramref name="fixOne"/> against the document as the earlier ones' fixes left it (so a scope is
    /// named as one fix at a time would name it).
    /// </summary>
    private protected static async Task<Document> FixOneAtATimeAsync(
        Document document, IEnumerable<Diagnostic> diagnostics, Func<SyntaxNode, Diagnostic, SyntaxNode?> target, Func<Document, SyntaxAnnotation, CancellationToken, Task<Document>> fixOne, CancellationToken cancellationToken)
    {
        SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }

        // One annotation per node, numbered in document order, so each is found again after the others' rewrites.
        List<SyntaxNode> ordered = [.. diagnostics.Select(d => target(root, d)).OfType<SyntaxNode>().Distinct().OrderBy(static n => n.SpanStart)];
        var annotations = ordered.Select((_, i) => new SyntaxAnnotation(AnnotationKind, i.ToString(System.Globalization.CultureInfo.InvariantCulture))).ToList();
        document = document.WithSyntaxRoot(root.ReplaceNodes(ordered, (original, rewritten) => rewritten.WithAdditionalAnnotations(annotations[ordered.IndexOf(original)])));
        foreach (SyntaxAnnotation annotation in annotations)
        {
            document = await fixOne(document, annotation, cancellationToken).ConfigureAwait(false);
        }

        return document;
    }

    /// <summary>Fixes every diagnostic of a document in one edit.</summary>
    private sealed class FixAll(PoolCodeFixProvider provider) : DocumentBasedFixAllProvider
    {
        protected override string GetFixAllTitle(FixAllContext fixAllContext) => provider.TitleOf(fixAllContext.DiagnosticIds.FirstOrDefault() ?? string.Empty);

        protected override async Task<Document?> FixAllAsync(FixAllContext fixAllContext, Document document, ImmutableArray<Diagnostic> diagnostics)
            => await provider.FixAllAsync(document, diagnostics, fixAllContext.CancellationToken).ConfigureAwait(false);
    }
}
