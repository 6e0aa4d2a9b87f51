using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;

namespace NativePool.Analyzers;

/// <content>NP0015: a <c>stackalloc</c>-or-rent.</content>
public sealed partial class RentScopedCodeFixProvider
{
    /// <summary>
    /// <c>using var scope = c ? default : pool.RentScoped(n);</c> goes before the span, whose rent branch becomes
    /// <c>scope.Span</c>; the nullable array, its null test and its return go away. A <see langword="default"/> scope does
    /// nothing when disposed, and the <c>stackalloc</c> branch never reads it.
    /// </summary>
    private static Document FixBesideStackalloc(Document document, ScopeSite site, StackallocOrRentMatch match)
    {
        if (site.Statement is not LocalDeclarationStatementSyntax declaration
            || match.SpanDeclaration.Syntax is not LocalDeclarationStatementSyntax span
            || match.Choice.Syntax is not ConditionalExpressionSyntax choice
            || ScopeSyntax.RentScoped(match.Rent, match.ClearOnReturn, site.Api) is not (ExpressionSyntax scoped, bool fromArrayPoolShared))
        {
            return document;
        }

        SemanticModel model = site.Model;
        BlockSyntax block = site.Block;
        string name = ScopeSyntax.UniqueName(model, span);
        bool rentIsWhenTrue = choice.WhenTrue.Span.Contains(match.RentBranch.Syntax.Span);
        ExpressionSyntax nothing = SyntaxFactory.LiteralExpression(SyntaxKind.DefaultLiteralExpression);
        VariableDeclarationSyntax variable = ScopeSyntax.Variable(
            name, SyntaxFactory.ConditionalExpression(choice.Condition.WithoutTrivia(), rentIsWhenTrue ? scoped : nothing, rentIsWhenTrue ? nothing : scoped));
        ExpressionSyntax branch = rentIsWhenTrue ? choice.WhenTrue : choice.WhenFalse;
        BlockSyntax rewritten = block.ReplaceNode(branch, ScopeSyntax.Member(name, "Span").WithTriviaFrom(branch));

        int rentedIndex = block.Statements.IndexOf(declaration);
        List<StatementSyntax> region = [];
        int after;
        if (match.Try?.Syntax is not TryStatementSyntax tryStatement)
        {
            // span; uses; if (rented != null) pool.Return(rented);
            int spanIndex = block.Statements.IndexOf(span);
            int releaseIndex = block.Statements.IndexOf((StatementSyntax)match.Release.Syntax);
            List<StatementSyntax> following = [.. block.Statements.Skip(releaseIndex + 1)];
            bool asDeclaration = following.Count == 0 || ScopeSyntax.NeedsDeclaration(following, [.. block.Statements.Skip(spanIndex).Take(releaseIndex - spanIndex)], model);
            region.AddRange(rewritten.Statements.Skip(rentedIndex + 1).Take(spanIndex - rentedIndex - 1));
            region.AddRange(ScopeSyntax.Hold(variable, rewritten.Statements.Skip(spanIndex).Take(releaseIndex - spanIndex), asDeclaration, span.GetLeadingTrivia()));
            after = releaseIndex + 1;
            if (after < rewritten.Statements.Count)
            {
                region.Add(ScopeSyntax.TakeLeadingTrivia(rewritten.Statements[after++], (StatementSyntax)match.Release.Syntax));
            }
        }
        else
        {
            int tryIndex = block.Statements.IndexOf(tryStatement);
            List<StatementSyntax> following = [.. block.Statements.Skip(tryIndex + 1)];
            bool asDeclaration = (following.Count == 0 || ScopeSyntax.NeedsDeclaration(following, [], model)) && !ScopeSyntax.LiftWouldClash(block, tryStatement.Block.Statements);
            SyntaxList<StatementSyntax> body = ((TryStatementSyntax)rewritten.Statements[tryIndex]).Block.Statements;
            int spanInBody = tryStatement.Block.Statements.IndexOf(span);
            if (spanInBody < 0)
            {
                // span; try { uses } finally { release }
                int spanIndex = block.Statements.IndexOf(span);
                region.AddRange(rewritten.Statements.Skip(rentedIndex + 1).Take(spanIndex - rentedIndex - 1));
                region.AddRange(ScopeSyntax.Hold(variable, [rewritten.Statements[spanIndex], .. body], asDeclaration, span.GetLeadingTrivia()));
            }
            else
            {
                // try { before; span; uses } finally { release }
                region.AddRange(rewritten.Statements.Skip(rentedIndex + 1).Take(tryIndex - rentedIndex - 1));
                List<StatementSyntax> held = ScopeSyntax.Hold(variable, body.Skip(spanInBody), asDeclaration || spanInBody > 0, span.GetLeadingTrivia());
                List<StatementSyntax> inner = [.. body.Take(spanInBody), .. held];
                region.AddRange(asDeclaration || spanInBody == 0 ? inner : [SyntaxFactory.Block(inner).WithLeadingTrivia(tryStatement.GetLeadingTrivia())]);
            }

            after = tryIndex + 1;
        }

        region = [.. region.Select(static s => s.WithAdditionalAnnotations(Formatter.Annotation))];
        if (region.Count != 0 && declaration.GetLeadingTrivia().Any(static t => !t.IsKind(SyntaxKind.WhitespaceTrivia) && !t.IsKind(SyntaxKind.EndOfLineTrivia)))
        {
            // Comments over the nullable array stay over what replaces it.
            region[0] = region[0].WithLeadingTrivia(declaration.GetLeadingTrivia());
        }

        return ScopeSyntax.Replace(document, site, rewritten, [.. rewritten.Statements.Take(rentedIndex), .. region, .. rewritten.Statements.Skip(after)], fromArrayPoolShared);
    }
}
