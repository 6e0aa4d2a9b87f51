using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;

namespace NativePool.Analyzers;

/// <summary>A code fix that offers one action per diagnostic, changing the diagnostic's document.</summary>
public abstract class PoolCodeFixProvider : CodeFixProvider
{
    private protected PoolCodeFixProvider()
    {
    }

    /// <summary>The action's title, also its equivalence key.</summary>
    private protected abstract string Title { get; }

    /// <inheritdoc/>
    /// <remarks>None unless the fix says otherwise: a fix that edits around each diagnostic cannot be batched safely.</remarks>
    public override FixAllProvider? GetFixAllProvider() => null;

    /// <inheritdoc/>
    public sealed override Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        foreach (Diagnostic diagnostic in context.Diagnostics)
        {
            context.RegisterCodeFix(CodeAction.Create(Title, token => FixAsync(context.Document, diagnostic, token), equivalenceKey: Title), diagnostic);
        }

        return Task.CompletedTask;
    }

    /// <summary>The document with the diagnostic fixed.</summary>
    private protected abstract Task<Document> FixAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken);
}
