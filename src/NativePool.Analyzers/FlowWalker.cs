using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Explores the paths of one control-flow graph with the state of the tracked locals, reporting NP0001-NP0005.
/// </summary>
/// <remarks>
/// Paths are explored state by state (a block is revisited only with a state it has not been seen with), so loops end
/// and equal paths are merged. Boolean locals and parameters used as conditions are followed by value, so a "returned"
/// flag makes the path that tests it real; so are repeated side-effect-free comparisons, until an operand is written. Finally blocks run on the paths that leave their try; a call in a try may throw
/// into its catch and finally blocks. A resource left held only by such an implicit exception is not reported unless
/// the option <c>nativepool.report_leaks_on_exceptions = true</c> asks for it: by default only a <c>throw</c> of the
/// method is.
/// </remarks>
internal sealed class FlowWalker
{
    /// <summary>The number of state values per tracked local.</summary>
    internal const int Stride = 3;
    private const int MaximumSteps = 20_000;

    private readonly ControlFlowGraph _graph;
    private readonly MethodScan _scan;
    private readonly PoolApi _api;
    private readonly Action<Diagnostic> _report;
    private readonly TrackedLocal[] _tracked;
    private readonly List<ISymbol> _poolKeys = [];
    private readonly List<IOperation> _sites = [];
    private readonly HashSet<string> _seen = [];
    private readonly HashSet<(string, Location)> _reported = [];
    private readonly Stack<FlowItem> _work = new();
    private readonly bool[] _inTry;

    private readonly bool _exceptionLeaks;

    private FlowWalker(ControlFlowGraph graph, MethodScan scan, PoolApi api, bool exceptionLeaks, Action<Diagnostic> report)
    {
        _graph = graph;
        _exceptionLeaks = exceptionLeaks;
        _scan = scan;
        _api = api;
        _report = report;
        _tracked = [.. scan.Tracked.Values];

        _inTry = new bool[graph.Blocks.Length];
        for (int i = 0; i < _inTry.Length; i++)
        {
            for (ControlFlowRegion? region = graph.Blocks[i].EnclosingRegion; region is not null && region != graph.Root; region = region.EnclosingRegion)
            {
                _inTry[i] |= region.Kind == ControlFlowRegionKind.Try;
            }
        }
    }

    /// <summary>Explores <paramref name="graph"/> and reports what it finds through <paramref name="report"/>.</summary>
    /// <param name="graph">The graph.</param>
    /// <param name="scan">The locals of the method the graph belongs to.</param>
    /// <param name="api">The pools of the compilation.</param>
    /// <param name="exceptionLeaks">Report a resource held when an exception from a call leaves the method (opt-in).</param>
    /// <param name="report">Receives the diagnostics.</param>
    public static void Run(ControlFlowGraph graph, MethodScan scan, PoolApi api, bool exceptionLeaks, Action<Diagnostic> report)
    {
        FlowWalker walker = new(graph, scan, api, exceptionLeaks, report);
        walker.Enqueue(0, new int[scan.StateLength], null, ExceptionKind.None);
        int steps = 0;
        while (walker._work.Count > 0 && steps++ < MaximumSteps)
        {
            walker.Step(walker._work.Pop());
        }
    }

    private void Enqueue(int block, int[] state, Continuation? continuation, ExceptionKind exception)
    {
        string key = string.Concat(block.ToString(System.Globalization.CultureInfo.InvariantCulture), "|", string.Join(",", state), "|", Continuation.Key(continuation), "|", ((int)exception).ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (_seen.Add(key))
        {
            _work.Push(new FlowItem(block, state, continuation, exception));
        }
    }

    private void Step(FlowItem item)
    {
        BasicBlock block = _graph.Blocks[item.Block];
        int[] state = (int[])item.State.Clone();
        if (block.Kind == BasicBlockKind.Exit)
        {
            ReportLeaks(state);
            return;
        }

        foreach (IOperation operation in block.Operations)
        {
            Visit(operation, state, block);
        }

        if (block.BranchValue is { } branchValue)
        {
            Visit(branchValue, state, block);
        }

        ControlFlowBranch fallThrough = block.FallThroughSuccessor!;
        switch (fallThrough?.Semantics)
        {
            case null:
                return;
            case ControlFlowBranchSemantics.Throw:
                Propagate(block.EnclosingRegion, state, ExceptionKind.Explicit, block.BranchValue?.Type);
                return;
            case ControlFlowBranchSemantics.Rethrow:
                Propagate(block.EnclosingRegion, state, ExceptionKind.Implicit, thrownType: null);
                return;
            case ControlFlowBranchSemantics.StructuredExceptionHandling:
                if (item.Continuation is { } continuation)
                {
                    if (continuation.Target == Continuation.Rethrow)
                    {
                        Propagate(block.EnclosingRegion, state, item.Exception, thrownType: null);
                    }
                    else
                    {
                        Enqueue(continuation.Target, state, continuation.Next, ExceptionKind.None);
                    }
                }

                return;
        }

        if (block.ConditionalSuccessor is { } conditional && block.BranchValue is { } condition)
        {
            bool jumpsWhenTrue = block.ConditionKind == ControlFlowConditionKind.WhenTrue;
            if (Assume(condition, jumpsWhenTrue, state) is { } jumpState)
            {
                Follow(conditional, jumpState, item.Continuation);
            }

            if (Assume(condition, !jumpsWhenTrue, state) is { } fallState)
            {
                Follow(fallThrough, fallState, item.Continuation);
            }

            return;
        }

        Follow(fallThrough, state, item.Continuation);
    }

    private void Follow(ControlFlowBranch branch, int[] state, Continuation? continuation)
    {
        if (branch.Destination is not { } destination)
        {
            return;
        }

        if (branch.FinallyRegions.IsEmpty)
        {
            Enqueue(destination.Ordinal, state, continuation, ExceptionKind.None);
            return;
        }

        // Run each finally on the way out, innermost first, then go on to the destination.
        Continuation? next = new(destination.Ordinal, continuation);
        for (int i = branch.FinallyRegions.Length - 1; i > 0; i--)
        {
            next = new Continuation(branch.FinallyRegions[i].FirstBlockOrdinal, next);
        }

        Enqueue(branch.FinallyRegions[0].FirstBlockOrdinal, state, next, ExceptionKind.None);
    }

    /// <summary>Sends an exception from <paramref name="region"/> to the handlers that may see it.</summary>
    private void Propagate(ControlFlowRegion? region, int[] state, ExceptionKind exception, ITypeSymbol? thrownType)
    {
        // A lambda's graph sits inside the regions of the graph around it: the walk stops at its own root.
        for (ControlFlowRegion? current = region; current is not null && current != _graph.Root; current = current.EnclosingRegion)
        {
            if (current.Kind != ControlFlowRegionKind.Try || current.EnclosingRegion is not { } parent)
            {
                continue;
            }

            if (parent.Kind == ControlFlowRegionKind.TryAndFinally)
            {
                Enqueue(parent.NestedRegions[1].FirstBlockOrdinal, state, new Continuation(Continuation.Rethrow, null), exception);
                return;
            }

            if (parent.Kind == ControlFlowRegionKind.TryAndCatch)
            {
                bool caught = false;
                for (int i = 1; i < parent.NestedRegions.Length; i++)
                {
                    ControlFlowRegion handler = parent.NestedRegions[i];
                    Enqueue(handler.FirstBlockOrdinal, state, null, ExceptionKind.None);
                    caught |= handler.Kind == ControlFlowRegionKind.Catch && Catches(handler.ExceptionType, thrownType);
                }

                if (caught)
                {
                    return;
                }

                current = parent;
            }
        }

        if (exception == ExceptionKind.Explicit || (exception == ExceptionKind.Implicit && _exceptionLeaks))
        {
            ReportLeaks(state);
        }
    }

    private static bool Catches(ITypeSymbol? caught, ITypeSymbol? thrown)
    {
        if (caught is null || caught.SpecialType == SpecialType.System_Object || caught.ToDisplayString() == "System.Exception")
        {
            return true;
        }

        for (ITypeSymbol? type = thrown; type is not null; type = type.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(type, caught))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The state on the side of a branch where <paramref name="condition"/> is <paramref name="value"/>, or null when that side cannot happen.</summary>
    private int[]? Assume(IOperation condition, bool value, int[] state)
    {
        IOperation? test = MethodScan.Unwrap(condition);
        while (test is IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } not)
        {
            value = !value;
            test = MethodScan.Unwrap(not.Operand);
        }

        if ((FlagSlot(test) ?? ConditionSlot(test)) is int slot)
        {
            int wanted = value ? 2 : 1;
            if (state[slot] != 0)
            {
                return state[slot] == wanted ? state : null;
            }

            int[] assumed = (int[])state.Clone();
            assumed[slot] = wanted;
            return assumed;
        }

        // A null test of a rented local: on its null side the local cannot hold anything rented.
        if (NullTest(test, out bool nullWhenTrue) is { } tracked && value == nullWhenTrue && (PathStatus)state[tracked.Slot * Stride] != PathStatus.None)
        {
            return null;
        }

        return state;
    }

    private TrackedLocal? NullTest(IOperation? test, out bool nullWhenTrue)
    {
        nullWhenTrue = true;
        switch (test)
        {
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } binary:
                nullWhenTrue = binary.OperatorKind == BinaryOperatorKind.Equals;
                return IsNull(binary.RightOperand) ? _scan.GetTracked(binary.LeftOperand) : IsNull(binary.LeftOperand) ? _scan.GetTracked(binary.RightOperand) : null;
            case IIsNullOperation isNull:
                return _scan.GetTracked(isNull.Operand);
            case IIsPatternOperation { Pattern: IConstantPatternOperation constant } pattern when IsNull(constant.Value):
                return _scan.GetTracked(pattern.Value);
            case IIsPatternOperation { Pattern: INegatedPatternOperation { Pattern: IConstantPatternOperation constant } } pattern when IsNull(constant.Value):
                nullWhenTrue = false;
                return _scan.GetTracked(pattern.Value);
            default:
                return null;
        }
    }

    private static bool IsNull(IOperation operation) => MethodScan.Unwrap(operation) is { ConstantValue: { HasValue: true, Value: null } };

    private int? FlagSlot(IOperation? operation)
    {
        ISymbol? symbol = operation switch
        {
            ILocalReferenceOperation local => local.Local,
            IParameterReferenceOperation parameter => parameter.Parameter,
            _ => null,
        };
        return symbol is not null && _scan.Flags.TryGetValue(symbol, out int slot) ? slot : null;
    }

    private int? ConditionSlot(IOperation? test)
        => test is IBinaryOperation && _scan.Conditions.TryGetValue(test.Syntax.ToString(), out int slot) ? slot : null;

    /// <summary>A write to a local or parameter forgets the outcome of every comparison that reads it.</summary>
    private void Written(IOperation? target, int[] state)
    {
        ISymbol? symbol = MethodScan.Unwrap(target) switch
        {
            ILocalReferenceOperation local => local.Local,
            IParameterReferenceOperation parameter => parameter.Parameter,
            _ => null,
        };
        if (symbol is not null && _scan.ConditionsReading.TryGetValue(symbol, out List<int>? slots))
        {
            foreach (int slot in slots)
            {
                state[slot] = 0;
            }
        }
    }

    private void Visit(IOperation operation, int[] state, BasicBlock block)
    {
        if (operation is IFlowAnonymousFunctionOperation)
        {
            return;
        }

        foreach (IOperation child in operation.ChildOperations)
        {
            Visit(child, state, block);
        }

        switch (operation)
        {
            case IInvocationOperation invocation:
                // With exception leaks on, the return itself is not taken to throw: every rent would leak through it.
                if (!_exceptionLeaks || !(_api.IsReturn(invocation) || PoolApi.IsDispose(invocation.TargetMethod)))
                {
                    MayThrow(state, block);
                }

                OnInvocation(invocation, state);
                break;
            case IObjectCreationOperation or IAwaitOperation:
                MayThrow(state, block);
                break;
            case ISimpleAssignmentOperation assignment:
                Written(assignment.Target, state);
                OnAssignment(assignment, state);
                break;
            case ICompoundAssignmentOperation or ICoalesceAssignmentOperation or IDeconstructionAssignmentOperation:
                Written(((IAssignmentOperation)operation).Target, state);
                foreach (IOperation part in ((IAssignmentOperation)operation).Target.DescendantsAndSelf())
                {
                    Written(part, state);
                }

                break;
            case IIncrementOrDecrementOperation step:
                Written(step.Target, state);
                break;
            case ILocalReferenceOperation reference:
                OnReference(reference, state);
                break;
        }
    }

    private void MayThrow(int[] state, BasicBlock block)
    {
        if (_inTry[block.Ordinal] || _exceptionLeaks)
        {
            Propagate(block.EnclosingRegion, (int[])state.Clone(), ExceptionKind.Implicit, thrownType: null);
        }
    }

    private void OnInvocation(IInvocationOperation invocation, int[] state)
    {
        if (_api.IsReturn(invocation) && _scan.GetTracked(ArgumentAt(invocation, 0)) is { IsView: false } returned)
        {
            Release(returned, PoolKey(invocation.Instance), invocation, state);
        }
        else if (PoolApi.IsDispose(invocation.TargetMethod) && _scan.GetTracked(invocation.Instance) is { IsView: false, Kind: ResourceKind.Disposable } disposed)
        {
            Release(disposed, poolKey: 0, invocation, state);
        }
        else if (_api.IsRent(invocation.TargetMethod, out ResourceKind kind) && kind != ResourceKind.Disposable && !IsAssignedToTracked(invocation))
        {
            // A rent the analysis does not follow may hand a returned item out again (`Assert.Same(array, pool.Rent(n))`):
            // returned items of that kind are no longer known to be returned.
            foreach (TrackedLocal tracked in _tracked)
            {
                if (!tracked.IsView && tracked.Kind == kind && (PathStatus)state[tracked.Slot * Stride] == PathStatus.Released)
                {
                    state[tracked.Slot * Stride] = (int)PathStatus.None;
                }
            }
        }

        foreach (IArgumentOperation argument in invocation.Arguments)
        {
            if (argument.Parameter?.RefKind is RefKind.Ref or RefKind.Out)
            {
                Forget(MethodScan.Unwrap(argument.Value), state);
                Written(argument.Value, state);
            }
        }
    }

    private bool IsAssignedToTracked(IOperation rent)
    {
        IOperation? parent = rent.Parent;
        while (parent is IConversionOperation)
        {
            parent = parent.Parent;
        }

        return parent is ISimpleAssignmentOperation assignment && _scan.GetTracked(assignment.Target) is not null;
    }

    private static IOperation? ArgumentAt(IInvocationOperation invocation, int ordinal)
    {
        foreach (IArgumentOperation argument in invocation.Arguments)
        {
            if (argument.Parameter?.Ordinal == ordinal)
            {
                return argument.Value;
            }
        }

        return null;
    }

    private void Forget(IOperation? target, int[] state)
    {
        if (_scan.GetTracked(target) is { } tracked)
        {
            state[tracked.Slot * Stride] = (int)PathStatus.None;
        }
        else if (FlagSlot(target) is int slot)
        {
            state[slot] = 0;
        }
    }

    private void OnAssignment(ISimpleAssignmentOperation assignment, int[] state)
    {
        IOperation? target = MethodScan.Unwrap(assignment.Target);
        if (_scan.GetTracked(target) is { } tracked)
        {
            int at = tracked.Slot * Stride;
            IOperation? value = MethodScan.Unwrap(assignment.Value);
            if (!tracked.IsView && value is IInvocationOperation rent && _api.IsRent(rent.TargetMethod, out _))
            {
                if ((PathStatus)state[at] == PathStatus.Held && !tracked.Escapes)
                {
                    ReportOnce(tracked.Kind == ResourceKind.Disposable ? Descriptors.NotDisposed : Descriptors.NotReturned, _sites[state[at + 2]], tracked.Local.Name);
                }

                state[at] = (int)PathStatus.Held;
                state[at + 1] = PoolKey(rent.Instance);
                state[at + 2] = Site(rent);
            }
            else if (tracked.IsView && _scan.GetViewSource(assignment.Value) is { } source)
            {
                state[at] = state[source.Slot * Stride];
            }
            else
            {
                state[at] = (int)PathStatus.None;
            }
        }
        else if (FlagSlot(target) is int slot)
        {
            state[slot] = MethodScan.Unwrap(assignment.Value)?.ConstantValue is { HasValue: true, Value: bool constant } ? (constant ? 2 : 1) : 0;
        }
    }

    private void OnReference(ILocalReferenceOperation reference, int[] state)
    {
        if (_scan.GetTracked(reference) is not { } tracked || (PathStatus)state[tracked.Slot * Stride] != PathStatus.Released || !IsUse(reference, tracked))
        {
            return;
        }

        ReportOnce(Descriptors.UseAfterReturn, reference, tracked.Local.Name);
    }

    /// <summary>Whether a reference reads or writes the item, rather than returning it, overwriting the local or testing it for null.</summary>
    private bool IsUse(ILocalReferenceOperation reference, TrackedLocal tracked)
    {
        IOperation? parent = reference.Parent;
        while (parent is IConversionOperation)
        {
            parent = parent.Parent;
        }

        switch (parent)
        {
            case ISimpleAssignmentOperation assignment when MethodScan.Unwrap(assignment.Target) == reference:
            case IArgumentOperation { Parent: IInvocationOperation invocation } when _api.IsReturn(invocation):
            case IInvocationOperation invocation2 when PoolApi.IsDispose(invocation2.TargetMethod):
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals }:
            case IIsNullOperation or IIsPatternOperation:
            case IArgumentOperation { Parent: IInvocationOperation { TargetMethod.Name: "ReferenceEquals" or "Same" or "NotSame" or "GetHashCode" } }:
                // Comparing references (identity, null) neither reads nor writes the item.
                return false;
            case IPropertyReferenceOperation { Property.Name: "Length" or "LongLength", Instance.Type.TypeKind: TypeKind.Array }:
                // An array's length never changes: reading it is safe after the return.
                return false;
            case IPropertyReferenceOperation property when tracked.Kind == ResourceKind.Disposable && !tracked.IsView:
                return property.Property.Name is "Memory" or "Span" or "Array";
            default:
                // A scope or lease is only used through the memory it hands out; for one, other members stay safe.
                return tracked.Kind != ResourceKind.Disposable || tracked.IsView;
        }
    }

    private void Release(TrackedLocal tracked, int poolKey, IInvocationOperation call, int[] state)
    {
        int at = tracked.Slot * Stride;
        switch ((PathStatus)state[at])
        {
            case PathStatus.Released when tracked.Kind != ResourceKind.Disposable:
                ReportOnce(Descriptors.DoubleReturn, call, tracked.Local.Name);
                break;
            case PathStatus.Held when poolKey != 0 && state[at + 1] != 0 && poolKey != state[at + 1]:
                ReportOnce(Descriptors.ReturnedToOtherPool, call, tracked.Local.Name, PoolName(state[at + 1]), PoolName(poolKey));
                break;
            case PathStatus.None:
                return;
        }

        state[at] = (int)PathStatus.Released;
        foreach (TrackedLocal view in _tracked)
        {
            if (view.Parent == tracked.Slot && (PathStatus)state[view.Slot * Stride] == PathStatus.Held)
            {
                state[view.Slot * Stride] = (int)PathStatus.Released;
            }
        }
    }

    private void ReportLeaks(int[] state)
    {
        foreach (TrackedLocal tracked in _tracked)
        {
            int at = tracked.Slot * Stride;
            if (!tracked.IsView && !tracked.Escapes && (PathStatus)state[at] == PathStatus.Held)
            {
                ReportOnce(tracked.Kind == ResourceKind.Disposable ? Descriptors.NotDisposed : Descriptors.NotReturned, _sites[state[at + 2]], tracked.Local.Name);
            }
        }
    }

    /// <summary>A key for a pool known statically (a static <c>Shared</c> pool, or a local holding a new pool), else 0.</summary>
    private int PoolKey(IOperation? instance)
    {
        ISymbol? key = MethodScan.Unwrap(instance) switch
        {
            IPropertyReferenceOperation { Property: { IsStatic: true, Name: "Shared" } shared } => shared,
            ILocalReferenceOperation local when _scan.PoolLocals.TryGetValue(local.Local, out ISymbol? known) => known,
            _ => null,
        };
        if (key is null)
        {
            return 0;
        }

        int index = _poolKeys.FindIndex(existing => SymbolEqualityComparer.Default.Equals(existing, key));
        if (index < 0)
        {
            _poolKeys.Add(key);
            index = _poolKeys.Count - 1;
        }

        return index + 1;
    }

    private string PoolName(int key)
    {
        ISymbol symbol = _poolKeys[key - 1];
        return symbol is IPropertySymbol property
            ? property.ContainingType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat) + "." + property.Name
            : symbol.Name;
    }

    private int Site(IOperation rent)
    {
        int index = _sites.FindIndex(site => site.Syntax == rent.Syntax);
        if (index < 0)
        {
            _sites.Add(rent);
            index = _sites.Count - 1;
        }

        return index;
    }

    private void ReportOnce(DiagnosticDescriptor descriptor, IOperation at, params object[] arguments)
    {
        Location location = at.Syntax.GetLocation();
        if (_reported.Add((descriptor.Id, location)))
        {
            _report(Diagnostic.Create(descriptor, location, arguments));
        }
    }
}
