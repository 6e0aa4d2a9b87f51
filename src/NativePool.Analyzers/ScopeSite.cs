using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NativePool.Analyzers;

/// <summary>The statement a scope fix marked, found again in the document as the earlier fixes left it, with its block and operation.</summary>
internal sealed record ScopeSite(SyntaxNode Root, SemanticModel Model, PoolApi Api, StatementSyntax Statement, BlockSyntax Block, IOperation Operation);
