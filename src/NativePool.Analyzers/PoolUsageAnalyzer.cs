using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Finds pooled items returned twice (NP0001), used after their return (NP0002), not returned (NP0003), scopes and leases
/// not disposed (NP0004) and items returned to another pool (NP0005), on the paths of the method's control-flow graph;
/// the first four under NP0008-NP0011 when only a path that takes an exception reaches them, and items or views over them
/// that leave the method that gives the items back (NP0013).
/// </summary>
/// <remarks>
/// Only methods that rent are analyzed: an operation action marks the block when it sees a rent, and the graph is built
/// at the end of such blocks alone. The callbacks of one block may run on different threads; the mark is one flag that
/// only ever goes from false to true.
/// </remarks>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class PoolUsageAnalyzer : PoolAnalyzer
{
    /// <summary>The .editorconfig option that makes NP0010 and NP0011 count an exception from a call as a way out of the method.</summary>
    public const string ExceptionLeaksOption = "nativepool.report_leaks_on_exceptions";

    /// <inheritdoc/>
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(
        Descriptors.DoubleReturn, Descriptors.UseAfterReturn, Descriptors.NotReturned, Descriptors.NotDisposed, Descriptors.ReturnedToOtherPool,
        Descriptors.DoubleReturnOnException, Descriptors.UseAfterReturnOnException, Descriptors.NotReturnedOnException, Descriptors.NotDisposedOnException,
        Descriptors.EscapesItsReturn);

    private protected override void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api)
        => context.RegisterOperationBlockStartAction(blockStart =>
        {
            StrongBox<int> mark = new();
            blockStart.RegisterOperationAction(
                operation =>
                {
                    if (api.IsRent(((IInvocationOperation)operation.Operation).TargetMethod, out _))
                    {
                        Volatile.Write(ref mark.Value, 1); // Volatile: publishes the mark to the block-end callback's thread.
                    }
                },
                OperationKind.Invocation);
            blockStart.RegisterOperationBlockEndAction(end =>
            {
                // Volatile: the operation callbacks may have run on another thread than the end callback.
                if (Volatile.Read(ref mark.Value) != 0)
                {
                    AnalyzeBlock(end, api);
                }
            });
        });

    private static void AnalyzeBlock(OperationBlockAnalysisContext context, PoolApi api)
    {
        HashSet<IOperation> roots = [];
        foreach (IOperation operationBlock in context.OperationBlocks)
        {
            IOperation block = operationBlock;
            while (block.Parent is { } parent)
            {
                block = parent;
            }

            if (operationBlock.Kind is not (OperationKind.MethodBody or OperationKind.ConstructorBody or OperationKind.Block) || !roots.Add(block))
            {
                continue;
            }

            MethodScan scan = MethodScan.Run(api, block);
            foreach ((IInvocationOperation rent, ResourceKind kind) in scan.Dropped)
            {
                context.ReportDiagnostic(Diagnostic.Create(
                    kind == ResourceKind.Disposable ? Descriptors.NotDisposed : Descriptors.NotReturned, rent.Syntax.GetLocation(), rent.TargetMethod.Name + "(...)"));
            }

            if (scan.Tracked.Count == 0)
            {
                continue;
            }

            bool exceptionLeaks = IsTrue(context.Options.AnalyzerConfigOptionsProvider.GetOptions(block.Syntax.SyntaxTree), ExceptionLeaksOption);
            Walk(context.GetControlFlowGraph(operationBlock), scan, api, exceptionLeaks, context);
        }
    }

    /// <summary>Walks a graph and the graphs of its lambdas and local functions, each with the locals it declares.</summary>
    private static void Walk(ControlFlowGraph graph, MethodScan scan, PoolApi api, bool exceptionLeaks, OperationBlockAnalysisContext context)
    {
        FlowWalker.Run(graph, scan, api, exceptionLeaks, context.ReportDiagnostic);
        foreach (IMethodSymbol localFunction in graph.LocalFunctions)
        {
            Walk(graph.GetLocalFunctionControlFlowGraph(localFunction, context.CancellationToken), scan, api, exceptionLeaks, context);
        }

        foreach (IFlowAnonymousFunctionOperation lambda in graph.Blocks.SelectMany(static block => block.Operations).SelectMany(static operation => operation.DescendantsAndSelf()).OfType<IFlowAnonymousFunctionOperation>())
        {
            Walk(graph.GetAnonymousFunctionControlFlowGraph(lambda, context.CancellationToken), scan, api, exceptionLeaks, context);
        }
    }
}
