using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NativePool.Analyzers;

/// <content>NP0014 (and NP0016 across an <c>await</c>): a rent returned without a try/finally.</content>
public sealed partial class RentScopedCodeFixProvider
{
    /// <summary>
    /// The statements between the rent and the return stay where they are, with their uses of the array rewritten, and
    /// the return goes away.
    /// </summary>
    private static Document FixWithoutFinally(Document document, ScopeSite site, RentScopedMatch match)
    {
        if (site.Statement is not LocalDeclarationStatementSyntax declaration || match.GiveBack.Syntax is not StatementSyntax giveBack
            || ScopeSyntax.RentScoped(match.Rent, match.ClearOnReturn, site.Api, match.Lease) is not (ExpressionSyntax scoped, bool fromArrayPoolShared))
        {
            return document;
        }

        SemanticModel model = site.Model;
        BlockSyntax block = site.Block;
        int start = block.Statements.IndexOf(declaration);
        int end = block.Statements.IndexOf(giveBack);
        List<StatementSyntax> moved = [.. block.Statements.Skip(start + 1).Take(end - start - 1)];
        List<StatementSyntax> following = [.. block.Statements.Skip(end + 1)];
        bool asDeclaration = following.Count == 0 || ScopeSyntax.NeedsDeclaration(following, moved, model);

        string name = ScopeSyntax.UniqueName(model, declaration, match.Lease);
        BlockSyntax rewritten = ScopeSyntax.ReplaceUses(site, match, moved, name);

        List<StatementSyntax> statements = [.. rewritten.Statements.Take(start)];
        statements.AddRange(ScopeSyntax.Hold(ScopeSyntax.Variable(name, scoped), rewritten.Statements.Skip(start + 1).Take(end - start - 1), asDeclaration, declaration.GetLeadingTrivia()));
        if (following.Count != 0)
        {
            statements.Add(ScopeSyntax.TakeLeadingTrivia(rewritten.Statements[end + 1], giveBack));
            statements.AddRange(rewritten.Statements.Skip(end + 2));
        }

        return ScopeSyntax.Replace(document, site, rewritten, statements, fromArrayPoolShared);
    }
}
