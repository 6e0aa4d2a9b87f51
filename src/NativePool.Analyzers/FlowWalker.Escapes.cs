using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>NP0013: a pooled item, or a view or task over it, leaves the method while held, and the method then gives the item back.</summary>
/// <remarks>
/// Each such place is an escape site, one bit of the item's state; giving the item back moves its bits to the path's
/// dangling set, and a later write to the same field, property or parameter clears the bit of what it stored. What is
/// still dangling when a path that took no exception reaches the exit is reported: the receiver holds memory the pool
/// may already have handed to another renter. Up to <see cref="MaximumEscapeSites"/> sites are followed per graph.
/// </remarks>
internal sealed partial class FlowWalker
{
    private const int EscapesOffset = 3;
    private const int MaximumEscapeSites = 31;
    private const int MaximumQuotedLength = 48;

    private readonly List<EscapeSite> _escapeSites = [];

    /// <summary>The captures of values that may leave (<c>return c ? scope.Span : default</c>), with their slots: the view's slot plus one, or 0.</summary>
    private readonly Dictionary<CaptureId, int> _viewCaptures = [];

    /// <summary>The escape sites whose item was given back while they held it, as a bit set.</summary>
    private readonly int _danglingSlot;

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
        IOperation? operation = MethodScan.Unwrap(target);
        if (operation is IParameterReferenceOperation { Parameter: { RefKind: RefKind.Ref or RefKind.Out } parameter })
        {
            key = parameter.Name;
            return true;
        }

        return IsReachableMember(operation, out key);
    }

    private static bool IsReachableMember(IOperation? operation, out string? key)
    {
        key = null;
        switch (operation)
        {
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
                return IsReachableMember(member, out key);
        }
    }
}
