using System.Collections.Generic;
using System.Collections.Immutable;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;

namespace NativePool.Analyzers;

/// <summary>A code fix that offers one action per diagnostic, and fixes all of a document's diagnostics in one edit.</summary>
public abstract class PoolCodeFixProvider : CodeFixProvider
{
    private readonly FixAll _fixAll;

    private protected PoolCodeFixProvider() => _fixAll = new FixAll(this);

    /// <summary>The action's title, also its equivalence key.</summary>
    private protected abstract string Title { get; }

    /// <inheritdoc/>
    public sealed override FixAllProvider GetFixAllProvider() => _fixAll;

    /// <inheritdoc/>
    public sealed override Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        foreach (Diagnostic diagnostic in context.Diagnostics)
        {
            context.RegisterCodeFix(CodeAction.Create(Title, token => FixAllAsync(context.Document, [diagnostic], token), equivalenceKey: Title), diagnostic);
        }

        return Task.CompletedTask;
    }

    /// <summary>The document with every one of <paramref name="diagnostics"/> fixed.</summary>
    private protected abstract Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken);

    /// <summary>Fixes every diagnostic of a document in one edit.</summary>
    private sealed class FixAll(PoolCodeFixProvider provider) : DocumentBasedFixAllProvider
    {
        protected override string GetFixAllTitle(FixAllContext fixAllContext) => provider.Title;

        protected override async Task<Document?> FixAllAsync(FixAllContext fixAllContext, Document document, ImmutableArray<Diagnostic> diagnostics)
            => await provider.FixAllAsync(document, diagnostics, fixAllContext.CancellationToken).ConfigureAwait(false);
    }
}
