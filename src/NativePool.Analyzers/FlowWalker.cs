using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// Explores the paths of one control-flow graph with the state of the tracked locals, reporting NP0001-NP0005,
/// NP0008-NP0011 and NP0013.
/// </summary>
/// <remarks>
/// Paths are explored state by state (a block is revisited only with a state it has not been seen with), so loops end
/// and equal paths are merged. Boolean locals and parameters used as conditions, and repeated side-effect-free
/// comparisons until an operand is written, are followed by value. Finally blocks run on the paths that leave their
/// try; a call in a try may throw into its catch and finally blocks. Each path remembers the first exception it took, and
/// findings are gathered over the whole walk, so that one that a path without exception also reaches keeps its certain id.
/// </remarks>
internal sealed partial class FlowWalker
{
    /// <summary>The number of state values per tracked local: status, pool key, rent site, escape sites.</summary>
    internal const int Stride = 4;
    private const int MaximumSteps = 20_000;

    private readonly ControlFlowGraph _graph;
    private readonly MethodScan _scan;
    private readonly PoolApi _api;
    private readonly Action<Diagnostic> _report;
    private readonly TrackedLocal[] _tracked;
    private readonly TrackedLocal?[] _bySlot;
    private readonly List<ISymbol> _poolKeys = [];
    private readonly List<IOperation> _sites = [];
    private readonly HashSet<string> _seen = [];
    private readonly Dictionary<(string, Location), Finding> _findings = [];
    private readonly List<Finding> _findingOrder = [];
    private readonly List<(IOperation Thrower, bool IsThrow)> _origins = [];
    private readonly Stack<FlowItem> _work = new();
    private readonly bool[] _inTry;

    /// <summary>
    /// The flow captures that may carry a rent to a tracked local (the branches of <c>c ? pool.Rent(n) : other</c>), with
    /// their slots after the scan's: per capture, the rent site plus one (0 when this path's branch did not rent) and the pool key.
    /// </summary>
    private readonly Dictionary<CaptureId, int> _rentCaptures = [];
    private readonly int _stateLength;

    private readonly bool _exceptionLeaks;

    /// <summary>The origin of the path being stepped (see <see cref="FlowItem.Origin"/>).</summary>
    private int _origin;

    private FlowWalker(ControlFlowGraph graph, MethodScan scan, PoolApi api, bool exceptionLeaks, Action<Diagnostic> report)
    {
        _graph = graph;
        _exceptionLeaks = exceptionLeaks;
        _scan = scan;
        _api = api;
        _report = report;
        _tracked = [.. scan.Tracked.Values];
        _bySlot = new TrackedLocal?[scan.TrackedCount];
        foreach (TrackedLocal tracked in _tracked)
        {
            _bySlot[tracked.Slot] = tracked;
        }

        _inTry = new bool[graph.Blocks.Length];
        for (int i = 0; i < _inTry.Length; i++)
        {
            for (ControlFlowRegion? region = graph.Blocks[i].EnclosingRegion; region is not null && region != graph.Root; region = region.EnclosingRegion)
            {
                _inTry[i] |= region.Kind == ControlFlowRegionKind.Try;
            }
        }

        _stateLength = scan.StateLength;
        foreach (CaptureId capture in FindRentCaptures())
        {
            _rentCaptures[capture] = _stateLength;
            _stateLength += 2;
        }

        _danglingSlot = _stateLength++;
        foreach (CaptureId capture in FindViewCaptures())
        {
            _viewCaptures[capture] = _stateLength++;
        }
    }

    /// <summary>The captures whose value may be a rent, or another such capture, and that end up assigned to a tracked resource.</summary>
    private HashSet<CaptureId> FindRentCaptures()
    {
        List<IFlowCaptureOperation> captures = [];
        HashSet<CaptureId> assigned = [];
        foreach (BasicBlock block in _graph.Blocks)
        {
            foreach (IOperation operation in block.Operations)
            {
                switch (operation is IExpressionStatementOperation statement ? statement.Operation : operation)
                {
                    case IFlowCaptureOperation capture:
                        captures.Add(capture);
                        break;
                    case ISimpleAssignmentOperation assignment
                        when MethodScan.Unwrap(assignment.Value) is IFlowCaptureReferenceOperation reference && _scan.GetTracked(assignment.Target) is { IsView: false }:
                        assigned.Add(reference.Id);
                        break;
                }
            }
        }

        return FeedingSources(captures, assigned, static (walker, value) => MethodScan.Unwrap(value) is IInvocationOperation invocation && walker._api.IsRent(invocation.TargetMethod, out _));
    }

    /// <summary>
    /// The captures that feed <paramref name="feeding"/> (directly, or as the value of another capture that does) and
    /// whose value is a source, or a capture of a source: the graph lowers a conditional or coalescing expression into
    /// one capture per branch.
    /// </summary>
    private HashSet<CaptureId> FeedingSources(List<IFlowCaptureOperation> captures, HashSet<CaptureId> feeding, Func<FlowWalker, IOperation?, bool> isSource)
    {
        for (bool changed = true; changed;)
        {
            changed = false;
            foreach (IFlowCaptureOperation capture in captures)
            {
                changed |= feeding.Contains(capture.Id) && MethodScan.Unwrap(capture.Value) is IFlowCaptureReferenceOperation inner && feeding.Add(inner.Id);
            }
        }

        HashSet<CaptureId> sources = [];
        for (bool changed = true; changed;)
        {
            changed = false;
            foreach (IFlowCaptureOperation capture in captures)
            {
                changed |= feeding.Contains(capture.Id) && !sources.Contains(capture.Id)
                    && (MethodScan.Unwrap(capture.Value) is IFlowCaptureReferenceOperation inner ? sources.Contains(inner.Id) : isSource(this, capture.Value))
                    && sources.Add(capture.Id);
            }
        }

        return sources;
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
        walker.Enqueue(0, new int[walker._stateLength], null, ExceptionKind.None, origin: 0);
        int steps = 0;
        while (walker._work.Count > 0 && steps++ < MaximumSteps)
        {
            walker.Step(walker._work.Pop());
        }

        walker.ReportFindings();
    }

    /// <remarks>
    /// Whether the path took an exception is part of the key, so a path without one is explored even where one with
    /// an exception has been; which exception it was is not, so equal paths after different throwing calls merge.
    /// </remarks>
    private void Enqueue(int block, int[] state, Continuation? continuation, ExceptionKind exception, int origin)
    {
        string key = string.Concat(block.ToString(System.Globalization.CultureInfo.InvariantCulture), "|", string.Join(",", state), "|", Continuation.Key(continuation), "|", ((int)exception).ToString(System.Globalization.CultureInfo.InvariantCulture), origin == 0 ? "|n" : "|x");
        if (_seen.Add(key))
        {
            _work.Push(new FlowItem(block, state, continuation, exception, origin));
        }
    }

    private void Step(FlowItem item)
    {
        BasicBlock block = _graph.Blocks[item.Block];
        int[] state = (int[])item.State.Clone();
        _origin = item.Origin;
        if (block.Kind == BasicBlockKind.Exit)
        {
            ReportLeaks(state, item.Origin);
            if (item.Origin == 0)
            {
                ReportDangling(state);
            }

            return;
        }

        foreach (IOperation operation in block.Operations)
        {
            Visit(operation, state, block);
        }

        if (block.BranchValue is { } branchValue)
        {
            Visit(branchValue, state, block);
            if (block.FallThroughSuccessor?.Semantics == ControlFlowBranchSemantics.Return)
            {
                OnLeaving(branchValue, state, yielded: false);
            }
        }

        ControlFlowBranch fallThrough = block.FallThroughSuccessor!;
        switch (fallThrough?.Semantics)
        {
            case null:
                return;
            case ControlFlowBranchSemantics.Throw:
                Propagate(block.EnclosingRegion, state, ExceptionKind.Explicit, block.BranchValue?.Type, OriginOf(block.BranchValue, isThrow: true));
                return;
            case ControlFlowBranchSemantics.Rethrow:
                Propagate(block.EnclosingRegion, state, ExceptionKind.Implicit, thrownType: null, OriginOf(block.BranchValue, isThrow: true));
                return;
            case ControlFlowBranchSemantics.StructuredExceptionHandling:
                if (item.Continuation is { } continuation)
                {
                    if (continuation.Target == Continuation.Rethrow)
                    {
                        Propagate(block.EnclosingRegion, state, item.Exception, thrownType: null, item.Origin);
                    }
                    else
                    {
                        Enqueue(continuation.Target, state, continuation.Next, ExceptionKind.None, item.Origin);
                    }
                }

                return;
        }

        if (block.ConditionalSuccessor is { } conditional && block.BranchValue is { } condition)
        {
            bool jumpsWhenTrue = block.ConditionKind == ControlFlowConditionKind.WhenTrue;
            if (Assume(condition, jumpsWhenTrue, state) is { } jumpState)
            {
                Follow(conditional, jumpState, item.Continuation, item.Origin);
            }

            if (Assume(condition, !jumpsWhenTrue, state) is { } fallState)
            {
                Follow(fallThrough, fallState, item.Continuation, item.Origin);
            }

            return;
        }

        Follow(fallThrough, state, item.Continuation, item.Origin);
    }

    private void Follow(ControlFlowBranch branch, int[] state, Continuation? continuation, int origin)
    {
        if (branch.Destination is not { } destination)
        {
            return;
        }

        if (branch.FinallyRegions.IsEmpty)
        {
            Enqueue(destination.Ordinal, state, continuation, ExceptionKind.None, origin);
            return;
        }

        // Run each finally on the way out, innermost first, then go on to the destination.
        Continuation? next = new(destination.Ordinal, continuation);
        for (int i = branch.FinallyRegions.Length - 1; i > 0; i--)
        {
            next = new Continuation(branch.FinallyRegions[i].FirstBlockOrdinal, next);
        }

        Enqueue(branch.FinallyRegions[0].FirstBlockOrdinal, state, next, ExceptionKind.None, origin);
    }

    /// <summary>Sends an exception from <paramref name="region"/> to the handlers that may see it.</summary>
    /// <param name="region">Where the exception is thrown.</param>
    /// <param name="state">The state when it is thrown.</param>
    /// <param name="exception">Whether it is a <c>throw</c> of the method or an exception from a call.</param>
    /// <param name="thrownType">The type thrown, when known.</param>
    /// <param name="origin">The path's origin (see <see cref="FlowItem.Origin"/>): the path now took an exception.</param>
    private void Propagate(ControlFlowRegion? region, int[] state, ExceptionKind exception, ITypeSymbol? thrownType, int origin)
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
                Enqueue(parent.NestedRegions[1].FirstBlockOrdinal, state, new Continuation(Continuation.Rethrow, null), exception, origin);
                return;
            }

            if (parent.Kind == ControlFlowRegionKind.TryAndCatch)
            {
                bool caught = false;
                for (int i = 1; i < parent.NestedRegions.Length; i++)
                {
                    ControlFlowRegion handler = parent.NestedRegions[i];
                    Enqueue(handler.FirstBlockOrdinal, state, null, ExceptionKind.None, origin);
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
            ReportLeaks(state, origin);
        }
    }

    /// <summary>
    /// The origin of a path that takes an exception at <paramref name="thrower"/>: the path's own when it already took
    /// one (the first exception is the one the path needs), else a new one for <paramref name="thrower"/>.
    /// </summary>
    /// <remarks>A rethrow has no operation, but it is reached only through a catch, so its path has an origin already.</remarks>
    private int OriginOf(IOperation? thrower, bool isThrow)
    {
        if (_origin != 0 || thrower is null)
        {
            return _origin;
        }

        return IndexOf(_origins, known => known.Thrower == thrower && known.IsThrow == isThrow, (Thrower: thrower, IsThrow: isThrow)) + 1;
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
        // The graph has turned a negated condition into the branch's condition kind already.
        IOperation? test = MethodScan.Unwrap(condition);
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
        => MethodScan.SymbolOf(operation) is { } symbol && _scan.Flags.TryGetValue(symbol, out int slot) ? slot : null;

    private int? ConditionSlot(IOperation? test)
        => test is IBinaryOperation && _scan.Conditions.TryGetValue(test.Syntax.ToString(), out int slot) ? slot : null;

    /// <summary>A write to a local or parameter forgets the outcome of every comparison that reads it.</summary>
    private void Written(IOperation? target, int[] state)
    {
        if (MethodScan.SymbolOf(target) is { } symbol && _scan.ConditionsReading.TryGetValue(symbol, out List<int>? slots))
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
                    MayThrow(operation, state, block);
                }

                OnInvocation(invocation, state);
                OnCallOutliving(invocation, block, state);
                break;
            case IObjectCreationOperation or IAwaitOperation:
                MayThrow(operation, state, block);
                break;
            case ISimpleAssignmentOperation assignment:
                Written(assignment.Target, state);
                OnAssignment(assignment, state);
                OnStore(assignment, state);
                break;
            case IFlowCaptureOperation capture when _rentCaptures.TryGetValue(capture.Id, out int slot):
                OnRentCapture(capture, slot, state);
                break;
            case IFlowCaptureOperation capture when _viewCaptures.TryGetValue(capture.Id, out int slot):
                OnViewCapture(capture, slot, state);
                break;
            case IReturnOperation { Kind: OperationKind.YieldReturn, ReturnedValue: { } yielded }:
                OnLeaving(yielded, state, yielded: true);
                break;
            case IEventAssignmentOperation eventAssignment:
                OnEventAdded(eventAssignment, state);
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

    private void MayThrow(IOperation thrower, int[] state, BasicBlock block)
    {
        if (_inTry[block.Ordinal] || _exceptionLeaks)
        {
            Propagate(block.EnclosingRegion, (int[])state.Clone(), ExceptionKind.Implicit, thrownType: null, OriginOf(thrower, isThrow: false));
        }
    }

    private void OnInvocation(IInvocationOperation invocation, int[] state)
    {
        if (_api.IsReturn(invocation) && _scan.GetTracked(MethodScan.Argument(invocation, 0)?.Value) is { IsView: false } returned)
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
        IOperation? parent = MethodScan.Outermost(rent).Parent;
        return (parent is ISimpleAssignmentOperation assignment && _scan.GetTracked(assignment.Target) is not null)
            || (parent is IFlowCaptureOperation capture && _rentCaptures.ContainsKey(capture.Id));
    }

    /// <summary>Records in the capture's slots whether this path's branch rented, and where from.</summary>
    private void OnRentCapture(IFlowCaptureOperation capture, int slot, int[] state)
    {
        switch (MethodScan.Unwrap(capture.Value))
        {
            case IInvocationOperation rent when _api.IsRent(rent.TargetMethod, out _):
                state[slot] = Site(rent) + 1;
                state[slot + 1] = PoolKey(rent.Instance);
                break;
            case IFlowCaptureReferenceOperation inner when _rentCaptures.TryGetValue(inner.Id, out int innerSlot):
                state[slot] = state[innerSlot];
                state[slot + 1] = state[innerSlot + 1];
                state[innerSlot] = state[innerSlot + 1] = 0;
                break;
            default:
                state[slot] = state[slot + 1] = 0;
                break;
        }
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
            int site = -1;
            int poolKey = 0;
            if (!tracked.IsView && value is IInvocationOperation rent && _api.IsRent(rent.TargetMethod, out _))
            {
                site = Site(rent);
                poolKey = PoolKey(rent.Instance);
            }
            else if (!tracked.IsView && value is IFlowCaptureReferenceOperation reference && _rentCaptures.TryGetValue(reference.Id, out int slot))
            {
                // A conditional's branch: a rent on this path when the branch taken rented. The capture is used once.
                site = state[slot] - 1;
                poolKey = state[slot + 1];
                state[slot] = state[slot + 1] = 0;
            }

            if (site >= 0)
            {
                if ((PathStatus)state[at] == PathStatus.Held && !tracked.Escapes)
                {
                    ReportLeak(tracked, _sites[state[at + 2]], _origin);
                }

                state[at] = (int)PathStatus.Held;
                state[at + 1] = poolKey;
                state[at + 2] = site;
                state[at + EscapesOffset] = 0;
            }
            else if (tracked.IsView && _scan.GetViewSource(assignment.Value) is { } source)
            {
                state[at] = state[source.Slot * Stride];
            }
            else
            {
                state[at] = (int)PathStatus.None;
                state[at + EscapesOffset] = 0;
            }
        }
        else if (FlagSlot(target) is int slot)
        {
            state[slot] = MethodScan.Unwrap(assignment.Value)?.ConstantValue is { HasValue: true, Value: bool constant } ? (constant ? 2 : 1) : 0;
        }
    }

    private void OnReference(ILocalReferenceOperation reference, int[] state)
    {
        if (_scan.GetTracked(reference) is not { } tracked || (PathStatus)state[tracked.Slot * Stride] != PathStatus.Released || !_scan.IsUse(reference, tracked))
        {
            return;
        }

        Report(Descriptors.UseAfterReturn, Descriptors.UseAfterReturnOnException, reference, _origin, tracked.Local.Name);
    }

    private void Release(TrackedLocal tracked, int poolKey, IInvocationOperation call, int[] state)
    {
        int at = tracked.Slot * Stride;
        switch ((PathStatus)state[at])
        {
            case PathStatus.Released when tracked.Kind != ResourceKind.Disposable:
                Report(Descriptors.DoubleReturn, Descriptors.DoubleReturnOnException, call, _origin, tracked.Local.Name);
                break;
            case PathStatus.Held when poolKey != 0 && state[at + 1] != 0 && poolKey != state[at + 1]:
                Report(Descriptors.ReturnedToOtherPool, exceptional: null, call, origin: 0, tracked.Local.Name, PoolName(state[at + 1]), PoolName(poolKey));
                break;
            case PathStatus.None:
                return;
        }

        state[at] = (int)PathStatus.Released;
        OnGivenBack(at, state);
        foreach (TrackedLocal view in _tracked)
        {
            if (view.Parent == tracked.Slot && (PathStatus)state[view.Slot * Stride] == PathStatus.Held)
            {
                state[view.Slot * Stride] = (int)PathStatus.Released;
            }
        }
    }

    private void ReportLeaks(int[] state, int origin)
    {
        foreach (TrackedLocal tracked in _tracked)
        {
            int at = tracked.Slot * Stride;
            if (!tracked.IsView && !tracked.Escapes && (PathStatus)state[at] == PathStatus.Held)
            {
                ReportLeak(tracked, _sites[state[at + 2]], origin);
            }
        }
    }

    private void ReportLeak(TrackedLocal tracked, IOperation rent, int origin)
    {
        if (tracked.Kind == ResourceKind.Disposable)
        {
            Report(Descriptors.NotDisposed, Descriptors.NotDisposedOnException, rent, origin, tracked.Local.Name);
        }
        else
        {
            Report(Descriptors.NotReturned, Descriptors.NotReturnedOnException, rent, origin, tracked.Local.Name);
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
        return key is null ? 0 : IndexOf(_poolKeys, existing => SymbolEqualityComparer.Default.Equals(existing, key), key) + 1;
    }

    private string PoolName(int key)
    {
        ISymbol symbol = _poolKeys[key - 1];
        return symbol is IPropertySymbol property
            ? property.ContainingType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat) + "." + property.Name
            : symbol.Name;
    }

    private int Site(IOperation rent) => IndexOf(_sites, site => site.Syntax == rent.Syntax, rent);

    /// <summary>The index of the first item of <paramref name="list"/> that <paramref name="match"/> accepts, after adding <paramref name="item"/> when there is none.</summary>
    private static int IndexOf<T>(List<T> list, Predicate<T> match, T item)
    {
        int index = list.FindIndex(match);
        if (index < 0)
        {
            list.Add(item);
            index = list.Count - 1;
        }

        return index;
    }

    /// <summary>Records a finding at <paramref name="at"/>; a path without exception makes it certain, whatever came first.</summary>
    /// <param name="certain">The rule when some path without exception reaches the finding.</param>
    /// <param name="exceptional">The rule when only paths that took an exception do, or null to report <paramref name="certain"/> anyway.</param>
    /// <param name="at">Where the finding is.</param>
    /// <param name="origin">The origin of the path that reached it (see <see cref="FlowItem.Origin"/>).</param>
    /// <param name="arguments">The arguments of <paramref name="certain"/>'s message; the first is the local's name.</param>
    private void Report(DiagnosticDescriptor certain, DiagnosticDescriptor? exceptional, IOperation at, int origin, params object[] arguments)
    {
        Location location = at.Syntax.GetLocation();
        if (exceptional is null)
        {
            origin = 0;
        }

        if (!_findings.TryGetValue((certain.Id, location), out Finding? finding))
        {
            finding = new Finding(certain, exceptional, at.Syntax, origin, arguments);
            _findings.Add((certain.Id, location), finding);
            _findingOrder.Add(finding);
        }
        else if (origin == 0 && finding.Origin != 0)
        {
            finding.Origin = 0;
            finding.Arguments = arguments;
        }
    }

    private void ReportFindings()
    {
        foreach (Finding finding in _findingOrder)
        {
            Location location = finding.Syntax.GetLocation();
            if (finding.Origin == 0 || finding.Exceptional is null)
            {
                _report(Diagnostic.Create(finding.Certain, location, finding.Arguments));
                continue;
            }

            (IOperation thrower, bool isThrow) = _origins[finding.Origin - 1];
            string condition = string.Format(
                System.Globalization.CultureInfo.InvariantCulture,
                "{0} at line {1} {2}",
                Describe(thrower, isThrow),
                thrower.Syntax.GetLocation().GetMappedLineSpan().StartLinePosition.Line + 1,
                isThrow ? "is reached" : "throws");
            object[] arguments = ReferenceEquals(finding.Exceptional, Descriptors.DoubleReturnOnException)
                ? [finding.Arguments[0], condition, HandlerOf(finding.Syntax)]
                : [finding.Arguments[0], condition];
            _report(Diagnostic.Create(finding.Exceptional, location, arguments));
        }
    }

    /// <summary>How a message names what throws: <c>'Rent(...)'</c>, <c>'new T(...)'</c>, <c>the 'await'</c>, <c>the 'throw'</c>.</summary>
    private static string Describe(IOperation thrower, bool isThrow) => thrower switch
    {
        _ when isThrow => "the 'throw'",
        IInvocationOperation invocation => "'" + invocation.TargetMethod.Name + "(...)'",
        IObjectCreationOperation { Type: { } type } => "'new " + type.Name + "(...)'",
        IAwaitOperation => "the 'await'",
        _ => "'" + thrower.Syntax + "'",
    };

    /// <summary>" in the 'finally'" or " in the 'catch'" when <paramref name="syntax"/> is in one (of its own method), else empty.</summary>
    private static string HandlerOf(SyntaxNode syntax)
    {
        for (SyntaxNode? node = syntax.Parent; node is not null; node = node.Parent)
        {
            if (node.IsKind(SyntaxKind.FinallyClause))
            {
                return " in the 'finally'";
            }

            if (node.IsKind(SyntaxKind.CatchClause))
            {
                return " in the 'catch'";
            }

            if (node is Microsoft.CodeAnalysis.CSharp.Syntax.MemberDeclarationSyntax or Microsoft.CodeAnalysis.CSharp.Syntax.AnonymousFunctionExpressionSyntax or Microsoft.CodeAnalysis.CSharp.Syntax.LocalFunctionStatementSyntax)
            {
                break;
            }
        }

        return string.Empty;
    }

    /// <summary>A finding, reported at the end of the walk; <c>Origin</c> is 0 once a path without exception reached it.</summary>
    private sealed record Finding(DiagnosticDescriptor Certain, DiagnosticDescriptor? Exceptional, SyntaxNode Syntax, int Origin, object[] Arguments)
    {
        public int Origin { get; set; } = Origin;

        public object[] Arguments { get; set; } = Arguments;
    }
}
