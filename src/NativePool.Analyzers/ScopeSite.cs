using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NativePool.Analyzers;

/// <summary>The statement a scope fix marked, found again in the document as the earlier fixes left it.</summary>
internal sealed class ScopeSite(SyntaxNode root, SemanticModel model, PoolApi api, StatementSyntax statement, BlockSyntax block, IOperation operation)
{
    /// <summary>The document's root.</summary>
    public SyntaxNode Root { get; } = root;

    /// <summary>The document's semantic model.</summary>
    public SemanticModel Model { get; } = model;

    /// <summary>The pools of the compilation.</summary>
    public PoolApi Api { get; } = api;

    /// <summary>The marked statement.</summary>
    public StatementSyntax Statement { get; } = statement;

    /// <summary>The block the statement is in.</summary>
    public BlockSyntax Block { get; } = block;

    /// <summary>The statement's operation.</summary>
    public IOperation Operation { get; } = operation;
}
