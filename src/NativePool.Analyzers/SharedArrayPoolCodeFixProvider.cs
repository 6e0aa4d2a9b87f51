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

namespace NativePool.Analyzers;

/// <summary>Replaces <c>ArrayPool&lt;T&gt;.Shared</c> with <c>StripedArrayPool&lt;T&gt;.Shared</c> and adds <c>using NativePool;</c> (NP0006).</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(SharedArrayPoolCodeFixProvider))]
[Shared]
public sealed class SharedArrayPoolCodeFixProvider : PoolCodeFixProvider
{
    /// <inheritdoc/>
    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(DiagnosticIds.UseStripedArrayPool);

    private protected override string TitleOf(string diagnosticId) => "Use StripedArrayPool<T>.Shared";

    /// <remarks>One edit for all, so the using is added once.</remarks>
    private protected override async Task<Document> FixAllAsync(Document document, IEnumerable<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not CompilationUnitSyntax root)
        {
            return document;
        }

        IEnumerable<MemberAccessExpressionSyntax> accesses = diagnostics.Select(d => root.FindNode(d.Location.SourceSpan, getInnermostNodeForTie: true)).OfType<MemberAccessExpressionSyntax>();
        return document.WithSyntaxRoot(AddUsing(root.ReplaceNodes(accesses, static (original, _) => ToStriped(original))));
    }

    /// <summary><c>StripedArrayPool&lt;T&gt;.Shared</c> for <paramref name="shared"/>, an <c>ArrayPool&lt;T&gt;.Shared</c> access (needs <c>using NativePool;</c>).</summary>
    internal static MemberAccessExpressionSyntax ToStriped(MemberAccessExpressionSyntax shared)
    {
        GenericNameSyntax generic = SharedArrayPoolAnalyzer.GetGenericName(shared.Expression)!;
        GenericNameSyntax striped = SyntaxFactory.GenericName(SyntaxFactory.Identifier("StripedArrayPool"), generic.TypeArgumentList)
            .WithTriviaFrom(shared.Expression);
        return shared.WithExpression(striped);
    }

    /// <summary>Adds <c>using NativePool;</c> in order among the file's usings, unless it is there.</summary>
    internal static CompilationUnitSyntax AddUsing(CompilationUnitSyntax root)
    {
        const string Namespace = "NativePool";
        if (root.Usings.Any(u => u.Alias is null && u.StaticKeyword.IsKind(SyntaxKind.None) && u.Name?.ToString() == Namespace)
            || root.Members.OfType<BaseNamespaceDeclarationSyntax>().Any(n => n.Name.ToString() == Namespace || n.Name.ToString().StartsWith(Namespace + ".", System.StringComparison.Ordinal)))
        {
            return root;
        }

        UsingDirectiveSyntax directive = SyntaxFactory.UsingDirective(SyntaxFactory.IdentifierName(Namespace))
            .WithUsingKeyword(SyntaxFactory.Token(SyntaxKind.UsingKeyword).WithTrailingTrivia(SyntaxFactory.Space))
            .WithTrailingTrivia(SyntaxFactory.EndOfLine("\n"));
        SyntaxList<UsingDirectiveSyntax> usings = root.Usings;
        if (usings.Count == 0)
        {
            return root.WithUsings(usings.Add(directive.WithTrailingTrivia(SyntaxFactory.EndOfLine("\n"), SyntaxFactory.EndOfLine("\n"))));
        }

        int index = 0;
        while (index < usings.Count && Precedes(usings[index], Namespace))
        {
            index++;
        }

        return root.WithUsings(usings.Insert(index, directive));
    }

    private static bool Precedes(UsingDirectiveSyntax existing, string name)
        => existing.Alias is null && existing.StaticKeyword.IsKind(SyntaxKind.None) && (existing.Name?.ToString() ?? string.Empty) is var other
            && (other == "System" || other.StartsWith("System.", System.StringComparison.Ordinal) || string.CompareOrdinal(other, name) < 0);
}
