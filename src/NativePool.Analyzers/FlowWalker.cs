using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>Explores the paths of one control-flow graph with the state of the tracked locals, reporting NP0001-NP0005, NP0008-NP0011 and NP0013.</summary>
/// <remarks>
/// A block is revisited only with a state it has not been seen with, so loops end and equal paths merge. Each path
/// remembers the first exception it took, and findings are gathered over the whole walk, so that one that a path
/// without exception also reaches keeps its certain id.
/// For NP0013, each place where a held item, or a view or task over it, leaves the method is an escape site, one bit of
/// the item's state; giving the item back moves its bits to the path's dangling set, and a later write to the same
/// field, property or parameter clears the bit of what it stored. What still dangles when a path that took no exception
/// reaches the exit is reported: the receiver holds memory the pool may already have handed to another renter. Up to
/// <see cref="MaximumEscapeSites"/> sites are followed per graph.
/// </remarks>
internal sealed class FlowWalker
{
    /// <summary>The number of state values per tracked local: status, pool key, rent site, escape sites.</summary>
    internal const int Stride = 4;
    private const int MaximumSteps = 20_000;
    private const int EscapesOffset = 3;
    private const int MaximumEscapeSites = 31;
    private const int MaximumQuotedLength = 48;

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

    /// <summary>The captures that may carry a rent to a tracked local (<c>c ? pool.Rent(n) : other</c>), with two slots: rent site plus one (0 for none), pool key.</summary>
    private readonly Dictionary<CaptureId, int> _rentCaptures = [];
    private readonly int _stateLength;
    private readonly bool _exceptionLeaks;
    private readonly List<EscapeSite> _escapeSites = [];

    /// <summary>The captures of values that may leave (<c>return c ? scope.Span : default</c>), with their slots: the view's slot plus one, or 0.</summary>
    private readonly Dictionary<CaptureId, int> _viewCaptures = [];

    /// <summary>The escape sites whose item was given back while they held it, as a bit set.</summary>
    private readonly int _danglingSlot;

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
        (HashSet<CaptureId> rentCaptures, HashSet<CaptureId> viewCaptures) = FindCaptures();
        foreach (CaptureId capture in rentCaptures)
        {
            _rentCaptures[capture] = _stateLength;
            _stateLength += 2;
        }

        _danglingSlot = _stateLength++;
        foreach (CaptureId capture in viewCaptures)
        {
            _viewCaptures[capture] = _stateLength++;
        }
    }

    /// <summary>The captures that may carry a rent to a tracked resource, and those that may carry a view out of the method (see <see cref="OnStore"/>).</summary>
    private (HashSet<CaptureId> Rents, HashSet<CaptureId> Views) FindCaptures()
    {
        List<IFlowCaptureOperation> captures = [];
        HashSet<CaptureId> toResources = [];
        HashSet<CaptureId> leaving = [];
        foreach (BasicBlock block in _graph.Blocks)
        {
            foreach (IOperation operation in block.Operations)
            {
                if ((operation is IExpressionStatementOperation statement ? statement.Operation : operation) is ISimpleAssignmentOperation toResource
                    && _scan.GetTracked(toResource.Target) is { IsView: false })
                {
                    Feed(toResources, toResource.Value);
                }

                foreach (IOperation descendant in operation.DescendantsAndSelf())
                {
                    switch (descendant)
                    {
                        case IFlowCaptureOperation capture:
                            captures.Add(capture);
                            break;
                        case IReturnOperation { Kind: OperationKind.YieldReturn } yield:
                            Feed(leaving, yield.ReturnedValue);
                            break;
                        case ISimpleAssignmentOperation assignment when OutlivesMethod(assignment.Target, out _):
                            Feed(leaving, assignment.Value);
                            break;
                    }
                }
            }

            if (block.FallThroughSuccessor?.Semantics == ControlFlowBranchSemantics.Return)
            {
                Feed(leaving, block.BranchValue);
            }
        }

        return (FeedingSources(captures, toResources, static (walker, value) => MethodScan.Unwrap(value) is IInvocationOperation invocation && walker._api.IsRent(invocation.TargetMethod, out _)),
            FeedingSources(captures, leaving, static (walker, value) => walker._scan.GetViewSource(value) is not null));

        static void Feed(HashSet<CaptureId> feeding, IOperation? value)
        {
            if (MethodScan.Unwrap(value) is IFlowCaptureReferenceOperation reference)
            {
                feeding.Add(reference.Id);
            }
        }
    }

    /// <summary>The captures that feed <paramref name="feeding"/> with a source, through captures: the graph lowers a conditional or coalescing expression into one capture per branch.</summary>
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

    /// <summary>Explores <paramref name="graph"/>; <paramref name="exceptionLeaks"/> (opt-in) reports what an exception from a call strands.</summary>
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
    /// Whether the path took an exception is part of the key, so a path without one is explored even where one with an
    /// exception has been; which exception it was is not, so equal paths after different throwing calls merge.
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
                Escape(branchValue, state, " is returned", key: null);
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
            case ControlFlowBranchSemantics.StructuredExceptionHandling when item.Continuation is { Target: Continuation.Rethrow }:
                Propagate(block.EnclosingRegion, state, item.Exception, thrownType: null, item.Origin);
                return;
            case ControlFlowBranchSemantics.StructuredExceptionHandling:
                if (item.Continuation is { } continuation)
                {
                    Enqueue(continuation.Target, state, continuation.Next, ExceptionKind.None, item.Origin);
                }

                return;
        }

        int[]? fallState = state;
        if (block.ConditionalSuccessor is { } conditional && block.BranchValue is { } condition)
        {
            bool jumpsWhenTrue = block.ConditionKind == ControlFlowConditionKind.WhenTrue;
            Follow(conditional, Assume(condition, jumpsWhenTrue, state), item.Continuation, item.Origin);
            fallState = Assume(condition, !jumpsWhenTrue, state);
        }

        Follow(fallThrough, fallState, item.Continuation, item.Origin);
    }

    /// <summary>Goes on along <paramref name="branch"/> with <paramref name="state"/>, unless the branch cannot be taken (null).</summary>
    private void Follow(ControlFlowBranch branch, int[]? state, Continuation? continuation, int origin)
    {
        if (branch.Destination is not { } destination || state is null)
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

    /// <summary>Sends an exception thrown in <paramref name="region"/> (of <paramref name="thrownType"/> when known) to the handlers that may see it.</summary>
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
    /// The origin of a path that takes an exception at <paramref name="thrower"/>: the path's own when it already took one
    /// (the first is the one the path needs; a rethrow, with no operation, is reached only that way), else a new one.
    /// </summary>
    private int OriginOf(IOperation? thrower, bool isThrow)
    {
        if (_origin != 0 || thrower is null)
        {
            return _origin;
        }

        return IndexOf(_origins, known => known.Thrower == thrower && known.IsThrow == isThrow, (Thrower: thrower, IsThrow: isThrow)) + 1;
    }

    private static bool Catches(ITypeSymbol? caught, ITypeSymbol? thrown)
        => caught is null || caught.SpecialType == SpecialType.System_Object || caught.ToDisplayString() == "System.Exception"
            || MethodScan.AndBaseTypes(thrown).Any(type => SymbolEqualityComparer.Default.Equals(type, caught));

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
                Escape(yielded, state, " is yielded", key: null);
                break;
            case IEventAssignmentOperation eventAssignment:
                OnEventAdded(eventAssignment, state);
                break;
            case ICompoundAssignmentOperation or ICoalesceAssignmentOperation or IDeconstructionAssignmentOperation:
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
            if (argument.Parameter?.RefKind is not (RefKind.Ref or RefKind.Out))
            {
                continue;
            }

            // What a call may write is no longer known.
            if (_scan.GetTracked(argument.Value) is { } tracked)
            {
                state[tracked.Slot * Stride] = (int)PathStatus.None;
            }
            else if (FlagSlot(argument.Value) is int slot)
            {
                state[slot] = 0;
            }

            Written(argument.Value, state);
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
        (int site, state[slot + 1]) = RentOf(capture.Value, state);
        state[slot] = site + 1;
    }

    /// <summary>The rent site (-1 for none) and pool key of the rent <paramref name="value"/> is on this path; a conditional's branch, a capture, is used once.</summary>
    private (int Site, int PoolKey) RentOf(IOperation? value, int[] state)
    {
        switch (MethodScan.Unwrap(value))
        {
            case IInvocationOperation rent when _api.IsRent(rent.TargetMethod, out _):
                return (Site(rent), PoolKey(rent.Instance));
            case IFlowCaptureReferenceOperation reference when _rentCaptures.TryGetValue(reference.Id, out int slot):
                (int Site, int PoolKey) rented = (state[slot] - 1, state[slot + 1]);
                state[slot] = state[slot + 1] = 0;
                return rented;
            default:
                return (-1, 0);
        }
    }

    private void OnAssignment(ISimpleAssignmentOperation assignment, int[] state)
    {
        IOperation? target = MethodScan.Unwrap(assignment.Target);
        if (_scan.GetTracked(target) is { } tracked)
        {
            int at = tracked.Slot * Stride;
            (int site, int poolKey) = tracked.IsView ? (-1, 0) : RentOf(assignment.Value, state);
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
        if (_scan.GetTracked(reference) is { } tracked && (PathStatus)state[tracked.Slot * Stride] == PathStatus.Released && _scan.IsUse(reference, tracked))
        {
            Report(Descriptors.UseAfterReturn, Descriptors.UseAfterReturnOnException, reference, _origin, tracked.Local.Name);
        }
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
        bool disposable = tracked.Kind == ResourceKind.Disposable;
        Report(disposable ? Descriptors.NotDisposed : Descriptors.NotReturned, disposable ? Descriptors.NotDisposedOnException : Descriptors.NotReturnedOnException, rent, origin, tracked.Local.Name);
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

    /// <summary>
    /// Records a finding: <paramref name="certain"/> once a path without exception reaches it, whatever came first, else
    /// <paramref name="exceptional"/> (null: <paramref name="certain"/> anyway), whose message is made at the end.
    /// </summary>
    private void Report(DiagnosticDescriptor certain, DiagnosticDescriptor? exceptional, IOperation at, int origin, params object[] arguments)
    {
        Location location = at.Syntax.GetLocation();
        origin = exceptional is null ? 0 : origin;

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
        for (SyntaxNode? node = syntax.Parent; node is not null and not (MemberDeclarationSyntax or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax); node = node.Parent)
        {
            if (node is FinallyClauseSyntax or CatchClauseSyntax)
            {
                return node is FinallyClauseSyntax ? " in the 'finally'" : " in the 'catch'";
            }
        }

        return string.Empty;
    }

    private void OnViewCapture(IFlowCaptureOperation capture, int slot, int[] state)
    {
        IOperation? value = MethodScan.Unwrap(capture.Value);
        if (value is IFlowCaptureReferenceOperation inner && _viewCaptures.TryGetValue(inner.Id, out int innerSlot))
        {
            state[slot] = state[innerSlot];
        }
        else
        {
            state[slot] = _scan.GetViewSource(value) is { } tracked && IsHeld(tracked, state) ? tracked.Slot + 1 : 0;
        }
    }

    /// <summary>A store where the method's caller can reach it, which also takes back what an earlier store there left.</summary>
    private void OnStore(ISimpleAssignmentOperation assignment, int[] state)
    {
        if (!OutlivesMethod(assignment.Target, out string? key))
        {
            return;
        }

        for (int i = 0; key is not null && i < _escapeSites.Count; i++)
        {
            if (_escapeSites[i].Key == key)
            {
                ClearEscape(i, state);
            }
        }

        Escape(assignment.Value, state, " is stored in '" + assignment.Target.Syntax + "'", key);
    }

    private void OnEventAdded(IEventAssignmentOperation assignment, int[] state)
    {
        if (assignment.Adds && assignment.EventReference is IEventReferenceOperation reference && InstanceOutlives(reference.Instance, out _))
        {
            Escape(assignment.HandlerValue, state, " is added to '" + reference.Event.Name + "'", key: null);
        }
    }

    /// <summary>A call whose work goes on after it returns: an <c>async void</c> method, or a task that is thrown away.</summary>
    private void OnCallOutliving(IInvocationOperation invocation, BasicBlock block, int[] state)
    {
        IMethodSymbol method = invocation.TargetMethod;
        string? how = method.IsAsync && method.ReturnsVoid ? " is passed to the async void method '" + method.Name + "'"
            : MethodScan.IsAwaitable(invocation.Type) && IsDiscarded(invocation, block) ? " is passed to '" + method.Name + "', whose task is not awaited"
            : null;
        for (int i = 0; how is not null && i < invocation.Arguments.Length; i++)
        {
            Escape(invocation.Arguments[i].Value, state, how, key: null);
        }
    }

    /// <summary>Whether nothing can wait for the task <paramref name="invocation"/> returns: a statement of its own or a discard, through <c>ConfigureAwait</c> or <c>AsTask</c>.</summary>
    private static bool IsDiscarded(IInvocationOperation invocation, BasicBlock block)
    {
        IOperation current = invocation;
        while (true)
        {
            switch (current.Parent)
            {
                case IConversionOperation conversion:
                    current = conversion;
                    continue;
                case IInvocationOperation { TargetMethod.Name: "ConfigureAwait" or "AsTask" or "Preserve" } next when next.Instance == current:
                    current = next;
                    continue;
                case null:
                    // A statement of the graph, unless it is the value the block branches on (a returned task).
                    return !ReferenceEquals(current, block.BranchValue);
                case IExpressionStatementOperation:
                    return true;
                case ISimpleAssignmentOperation { Target: IDiscardOperation } discard:
                    return discard.Value == current;
                default:
                    return false;
            }
        }
    }

    private void Escape(IOperation? value, int[] state, string how, string? key)
    {
        if (value is null)
        {
            return;
        }

        List<(IOperation Carrier, TrackedLocal Via, TrackedLocal Owner)> found = [];
        FindCarried(value, value, state, found);
        foreach ((IOperation carrier, TrackedLocal via, TrackedLocal owner) in found)
        {
            int index = _escapeSites.FindIndex(site => site.Carrier.Syntax == carrier.Syntax && site.Owner == owner);
            if (index < 0)
            {
                if (_escapeSites.Count == MaximumEscapeSites)
                {
                    continue;
                }

                _escapeSites.Add(new EscapeSite(carrier, owner, Describe(carrier, via) + how, key));
                index = _escapeSites.Count - 1;
            }

            state[(owner.Slot * Stride) + EscapesOffset] |= 1 << index;
        }
    }

    /// <summary>The held items <paramref name="value"/> carries out: as a view, a task handed one, a delegate over a function that reads one, a tuple, the branch this path took.</summary>
    private void FindCarried(IOperation carrier, IOperation? value, int[] state, List<(IOperation, TrackedLocal, TrackedLocal)> found)
    {
        switch (MethodScan.Unwrap(value))
        {
            case null:
                return;
            case IFlowCaptureReferenceOperation reference when _viewCaptures.TryGetValue(reference.Id, out int slot):
                if (state[slot] > 0 && _bySlot[state[slot] - 1] is { } captured)
                {
                    AddIfHeld(carrier, captured, state, found);
                }

                return;
            case ITupleOperation tuple:
                foreach (IOperation element in tuple.Elements)
                {
                    FindCarried(element, element, state, found);
                }

                return;
            case IDelegateCreationOperation creation:
                if (FunctionOf(creation.Target) is { } function && _scan.CapturedUses.TryGetValue(function, out List<TrackedLocal>? uses))
                {
                    foreach (TrackedLocal use in uses)
                    {
                        AddIfHeld(carrier, use, state, found);
                    }
                }

                return;
            case IInvocationOperation invocation when MethodScan.IsAwaitable(invocation.Type):
                FindCarried(carrier, invocation.Instance, state, found);
                foreach (IArgumentOperation argument in invocation.Arguments)
                {
                    FindCarried(carrier, argument.Value, state, found);
                }

                return;
            case { } operation:
                if (_scan.GetViewSource(operation) is { } tracked)
                {
                    AddIfHeld(carrier, tracked, state, found);
                }

                return;
        }
    }

    private static IMethodSymbol? FunctionOf(IOperation target) => target switch
    {
        IFlowAnonymousFunctionOperation lambda => lambda.Symbol,
        IAnonymousFunctionOperation lambda => lambda.Symbol,
        IMethodReferenceOperation { Method: { MethodKind: MethodKind.LocalFunction } local } => local.OriginalDefinition,
        _ => null,
    };

    private void AddIfHeld(IOperation carrier, TrackedLocal via, int[] state, List<(IOperation, TrackedLocal, TrackedLocal)> found)
    {
        if (IsHeld(via, state) && (via.IsView ? _bySlot[via.Parent] : via) is { } owner && IsHeld(owner, state))
        {
            found.Add((carrier, via, owner));
        }
    }

    private static bool IsHeld(TrackedLocal tracked, int[] state) => (PathStatus)state[tracked.Slot * Stride] == PathStatus.Held;

    /// <summary>How the message names what leaves: its text when short, else what it is made from.</summary>
    private static string Describe(IOperation carrier, TrackedLocal via)
    {
        if (MethodScan.Unwrap(carrier) is IDelegateCreationOperation)
        {
            return "A delegate that uses '" + via.Local.Name + "'";
        }

        string text = carrier.Syntax.ToString();
        return text.Length <= MaximumQuotedLength && text.IndexOf('\n') < 0 ? "'" + text + "'" : "A value made from '" + via.Local.Name + "'";
    }

    /// <summary>What escaped while the item was held dangles once it is given back.</summary>
    private void OnGivenBack(int at, int[] state)
    {
        state[_danglingSlot] |= state[at + EscapesOffset];
        state[at + EscapesOffset] = 0;
    }

    private void ClearEscape(int index, int[] state)
    {
        int mask = ~(1 << index);
        foreach (TrackedLocal tracked in _tracked)
        {
            state[(tracked.Slot * Stride) + EscapesOffset] &= mask;
        }

        state[_danglingSlot] &= mask;
    }

    private void ReportDangling(int[] state)
    {
        int dangling = state[_danglingSlot];
        for (int i = 0; i < _escapeSites.Count; i++)
        {
            if ((dangling & (1 << i)) != 0)
            {
                EscapeSite site = _escapeSites[i];
                Report(Descriptors.EscapesItsReturn, exceptional: null, site.Carrier, origin: 0, site.Clause, site.Owner.Local.Name);
            }
        }
    }

    /// <summary>
    /// Whether what <paramref name="target"/> stores stays reachable once the method returns (a <c>ref</c> or <c>out</c>
    /// parameter, or a member or element of the instance, a static or a parameter); <paramref name="key"/> names it when it can.
    /// </summary>
    private static bool OutlivesMethod(IOperation? target, out string? key)
    {
        key = null;
        switch (MethodScan.Unwrap(target))
        {
            case IParameterReferenceOperation { Parameter: { RefKind: RefKind.Ref or RefKind.Out } parameter }:
                key = parameter.Name;
                return true;
            case IFieldReferenceOperation field when InstanceOutlives(field.Instance, out string? root):
                key = root is null ? null : root + "." + field.Field.ToDisplayString();
                return true;
            case IPropertyReferenceOperation property when InstanceOutlives(property.Instance, out string? root):
                key = root is null || property.Arguments.Length > 0 ? null : root + "." + property.Property.ToDisplayString();
                return true;
            case IArrayElementReferenceOperation element when InstanceOutlives(element.ArrayReference, out _):
                return true;
            default:
                return false;
        }
    }

    private static bool InstanceOutlives(IOperation? instance, out string? key)
    {
        switch (MethodScan.Unwrap(instance))
        {
            case null:
                key = "static";
                return true;
            case IInstanceReferenceOperation:
                key = "this";
                return true;
            case IParameterReferenceOperation { Parameter: var parameter } when parameter.RefKind != RefKind.None || parameter.Type.IsReferenceType:
                key = parameter.Name;
                return true;
            case var member:
                return OutlivesMethod(member, out key);
        }
    }

    /// <summary>A finding, reported at the end of the walk; <c>Origin</c> is 0 once a path without exception reached it.</summary>
    private sealed record Finding(DiagnosticDescriptor Certain, DiagnosticDescriptor? Exceptional, SyntaxNode Syntax, int Origin, object[] Arguments)
    {
        public int Origin { get; set; } = Origin;

        public object[] Arguments { get; set; } = Arguments;
    }
}
