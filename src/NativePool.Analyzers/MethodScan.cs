using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FlowAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// One pass over a method's operations that finds the locals worth following (resources, views, flags, known pools), and
/// whether each resource's ownership may leave the method; when that is unclear it counts as leaving, so no leak is reported.
/// </summary>
internal sealed class MethodScan
{
    private const int MaximumFlags = 16;

    private readonly PoolApi _api;
    private readonly Dictionary<ILocalSymbol, List<IOperation?>> _writes = new(SymbolEqualityComparer.Default);
    private readonly Dictionary<ILocalSymbol, IOperation?> _declaringFunction = new(SymbolEqualityComparer.Default);
    private readonly List<ILocalReferenceOperation> _references = [];
    private readonly HashSet<ISymbol> _flagCandidates = new(SymbolEqualityComparer.Default);
    private readonly Dictionary<string, (int Count, HashSet<ISymbol> Reads)> _comparisons = new(System.StringComparer.Ordinal);

    private MethodScan(PoolApi api) => _api = api;

    public Dictionary<ILocalSymbol, TrackedLocal> Tracked { get; } = new(SymbolEqualityComparer.Default);

    /// <summary>The boolean locals and parameters whose constant values are followed along paths, with their slots.</summary>
    public Dictionary<ISymbol, int> Flags { get; } = new(SymbolEqualityComparer.Default);

    /// <summary>Side-effect-free comparisons written more than once (<c>n &gt; 256</c>), by text, with their slots: a later test of one takes the same branch.</summary>
    public Dictionary<string, int> Conditions { get; } = new(System.StringComparer.Ordinal);

    /// <summary>The locals and parameters each comparison of <see cref="Conditions"/> reads, by slot: a write to one forgets the outcome.</summary>
    public Dictionary<ISymbol, List<int>> ConditionsReading { get; } = new(SymbolEqualityComparer.Default);

    /// <summary>The length of a path's state: the tracked locals, the flags, then the comparisons.</summary>
    public int StateLength => (TrackedCount * FlowWalker.Stride) + Flags.Count + Conditions.Count;

    /// <summary>Pool locals assigned once, from a static <c>Shared</c> pool (the key is that property) or a new pool (the key is the local).</summary>
    public Dictionary<ILocalSymbol, ISymbol> PoolLocals { get; } = new(SymbolEqualityComparer.Default);

    public List<(IInvocationOperation Rent, ResourceKind Kind)> Dropped { get; } = [];

    /// <summary>The tracked locals each lambda or local function (or one nested in it) reads the memory of: a delegate over it hands that memory on.</summary>
    public Dictionary<IMethodSymbol, List<TrackedLocal>> CapturedUses { get; } = new(SymbolEqualityComparer.Default);

    public int TrackedCount { get; private set; }

    public static MethodScan Run(PoolApi api, IOperation root)
    {
        MethodScan scan = new(api);
        scan.Collect(root, function: null);
        scan.FindTracked();
        scan.FindEscapes();
        scan.FindFlagsAndPools();
        return scan;
    }

    public TrackedLocal? GetTracked(IOperation? operation)
        => Unwrap(operation) is ILocalReferenceOperation reference && Tracked.TryGetValue(reference.Local, out TrackedLocal? tracked) ? tracked : null;

    public static ISymbol? SymbolOf(IOperation? operation) => Unwrap(operation) switch
    {
        ILocalReferenceOperation local => local.Local,
        IParameterReferenceOperation parameter => parameter.Parameter,
        _ => null,
    };

    public static IOperation Outermost(IOperation operation)
    {
        while (operation.Parent is IConversionOperation conversion)
        {
            operation = conversion;
        }

        return operation;
    }

    public static void Add<TKey, TValue>(Dictionary<TKey, List<TValue>> lists, TKey key, TValue value)
    {
        if (!lists.TryGetValue(key, out List<TValue>? list))
        {
            lists[key] = list = [];
        }

        list.Add(value);
    }

    public static IArgumentOperation? Argument(IInvocationOperation invocation, int ordinal)
        => invocation.Arguments.FirstOrDefault(argument => argument.Parameter?.Ordinal == ordinal);

    public static IOperation? Unwrap(IOperation? operation)
    {
        while (operation is IConversionOperation conversion)
        {
            operation = conversion.Operand;
        }

        return operation;
    }

    /// <summary>The tracked local a view expression (a conversion, <c>AsSpan</c>, <c>Slice</c>, a span constructor, a lease's <c>Memory</c>) is over.</summary>
    public TrackedLocal? GetViewSource(IOperation? value)
    {
        for (int depth = 0; depth < 8 && value is not null; depth++)
        {
            value = Unwrap(value);
            switch (value)
            {
                case ILocalReferenceOperation reference:
                    return Tracked.TryGetValue(reference.Local, out TrackedLocal? tracked) ? tracked : null;
                case IInvocationOperation invocation when IsViewMethod(invocation.TargetMethod):
                    value = invocation.Instance ?? (invocation.Arguments.Length > 0 ? invocation.Arguments[0].Value : null);
                    break;
                case IObjectCreationOperation creation when IsViewType(creation.Type) && creation.Arguments.Length > 0:
                    value = creation.Arguments[0].Value;
                    break;
                case IPropertyReferenceOperation property when property.Property.Name is "Memory" or "Span" or "Array":
                    value = property.Instance;
                    break;
                case IPropertyReferenceOperation { Property: { Name: "Value", Type.IsReferenceType: true } } property
                    when GetTracked(property.Instance) is { IsView: false, Kind: ResourceKind.Disposable } scope:
                    // The object of an object scope or lease.
                    return scope;
                case IInvocationOperation invocation when IsAwaitable(invocation.Type):
                    // A task (`stream.WriteAsync(lease.Memory)`) uses what it was given until it completes.
                    return GetTaskSource(invocation);
                default:
                    return null;
            }
        }

        return null;
    }

    /// <summary>Whether <paramref name="type"/> can be awaited through an instance <c>GetAwaiter()</c> (tasks, value tasks, configured awaitables).</summary>
    public static bool IsAwaitable(ITypeSymbol? type)
        => AndBaseTypes(type).Any(static t => t.GetMembers("GetAwaiter").Any(static m => m is IMethodSymbol { IsStatic: false, Parameters.Length: 0 }));

    public static IEnumerable<ITypeSymbol> AndBaseTypes(ITypeSymbol? type)
    {
        for (; type is not null; type = type.BaseType)
        {
            yield return type;
        }
    }

    /// <summary>The tracked local that the receiver or an argument of a call returning an awaitable is a view of, if any.</summary>
    private TrackedLocal? GetTaskSource(IInvocationOperation invocation)
        => GetViewSource(invocation.Instance) ?? invocation.Arguments.Select(argument => GetViewSource(argument.Value)).FirstOrDefault(static source => source is not null);

    /// <summary>Whether a reference reads or writes the item's memory, rather than what stays true after its return (identity, an array's length, a scope's other members).</summary>
    public bool IsUse(ILocalReferenceOperation reference, TrackedLocal tracked)
    {
        switch (Outermost(reference).Parent)
        {
            case ISimpleAssignmentOperation assignment when Unwrap(assignment.Target) == reference:
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
                return property.Property.Name is "Memory" or "Span" or "Array" or "Value";
            default:
                // A scope or lease is only used through the memory or object it hands out; for one, other members stay safe.
                return tracked.Kind != ResourceKind.Disposable || tracked.IsView;
        }
    }

    /// <summary>Whether <paramref name="method"/> makes a view of its receiver or first argument.</summary>
    internal static bool IsViewMethod(IMethodSymbol method) => method.Name is "AsSpan" or "AsMemory" or "Slice";

    private static bool IsViewType(ITypeSymbol? type)
        => type is INamedTypeSymbol { ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } named
            && named.Name is "Span" or "ReadOnlySpan" or "Memory" or "ReadOnlyMemory" or "ArraySegment";

    private void Collect(IOperation operation, IOperation? function)
    {
        switch (operation)
        {
            case IAnonymousFunctionOperation or ILocalFunctionOperation:
                function = operation;
                break;
            case IVariableDeclaratorOperation declarator:
                Add(_writes, declarator.Symbol, declarator.Initializer?.Value);
                _declaringFunction[declarator.Symbol] = function;
                break;
            case ISimpleAssignmentOperation { Target: ILocalReferenceOperation target } assignment:
                Add(_writes, target.Local, assignment.Value);
                break;
            case ILocalReferenceOperation reference:
                _references.Add(reference);
                break;
            case IInvocationOperation invocation when _api.IsRent(invocation.TargetMethod, out ResourceKind kind) && IsDiscarded(invocation):
                Dropped.Add((invocation, kind));
                break;
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.LessThan or BinaryOperatorKind.LessThanOrEqual or BinaryOperatorKind.GreaterThan or BinaryOperatorKind.GreaterThanOrEqual or BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                AddComparison(comparison);
                break;
        }

        if (operation is IConditionalOperation or IWhileLoopOperation or IForLoopOperation || operation.Parent is IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr })
        {
            foreach (IOperation child in operation.ChildOperations)
            {
                AddFlagCandidate(child);
            }

            AddFlagCandidate(operation);
        }

        foreach (IOperation child in operation.ChildOperations)
        {
            Collect(child, function);
        }
    }

    private void AddFlagCandidate(IOperation operation)
    {
        operation = Unwrap(operation)!;
        if (operation is IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } not)
        {
            operation = Unwrap(not.Operand)!;
        }

        if (SymbolOf(operation) is { } symbol && operation.Type?.SpecialType == SpecialType.System_Boolean)
        {
            _flagCandidates.Add(symbol);
        }
    }

    private void AddComparison(IBinaryOperation comparison)
    {
        HashSet<ISymbol> reads = new(SymbolEqualityComparer.Default);
        foreach (IOperation part in comparison.DescendantsAndSelf())
        {
            switch (part)
            {
                case IBinaryOperation or IUnaryOperation or IConversionOperation or ILiteralOperation:
                    continue;
                case ILocalReferenceOperation local:
                    reads.Add(local.Local);
                    continue;
                case IParameterReferenceOperation parameter when parameter.Parameter.RefKind == RefKind.None:
                    reads.Add(parameter.Parameter);
                    continue;
                case IFieldReferenceOperation { Field.IsConst: true }:
                    continue;
                default:
                    return;
            }
        }

        string text = comparison.Syntax.ToString();
        _comparisons[text] = _comparisons.TryGetValue(text, out (int Count, HashSet<ISymbol> Reads) seen) ? (seen.Count + 1, seen.Reads) : (1, reads);
    }

    /// <remarks>The body of an expression lambda (<c>() =&gt; pool.Rent(-1)</c>, as <c>Assert.Throws</c> takes it) is not counted.</remarks>
    private static bool IsDiscarded(IOperation operation)
        => (operation.Parent is IExpressionStatementOperation statement && !(statement.IsImplicit && statement.Parent is IBlockOperation { IsImplicit: true, Parent: IAnonymousFunctionOperation }))
            || (operation.Parent is ISimpleAssignmentOperation { Target: IDiscardOperation } && operation.Parent.Parent is IExpressionStatementOperation);

    private void FindTracked()
    {
        int slot = 0;
        foreach (KeyValuePair<ILocalSymbol, List<IOperation?>> pair in _writes)
        {
            // A local given one kind of resource only.
            List<ResourceKind> kinds = [.. pair.Value.SelectMany(RentKindsOf).Distinct()];
            if (kinds.Count == 1)
            {
                Tracked[pair.Key] = new TrackedLocal(pair.Key, slot++, kinds[0], Parent: -1);
            }
        }

        // Views over resources, and views over views, to a small depth.
        for (int round = 0; round < 3; round++)
        {
            foreach (KeyValuePair<ILocalSymbol, List<IOperation?>> pair in _writes)
            {
                if (Tracked.ContainsKey(pair.Key))
                {
                    continue;
                }

                foreach (IOperation? value in pair.Value)
                {
                    if (value is not null && (Unwrap(value) is not ILocalReferenceOperation || IsViewType(value.Type)) && GetViewSource(value) is { } source)
                    {
                        int root = source.IsView ? source.Parent : source.Slot;
                        Tracked[pair.Key] = new TrackedLocal(pair.Key, slot++, source.Kind, root);
                        break;
                    }
                }
            }
        }

        TrackedCount = slot;
    }

    /// <summary>The kinds of the rents whose result <paramref name="value"/> may be, through the branches of conditionals and coalescings.</summary>
    private List<ResourceKind> RentKindsOf(IOperation? value)
    {
        List<ResourceKind> rents = [];
        Stack<IOperation?> pending = new();
        pending.Push(value);
        while (pending.Count > 0)
        {
            switch (Unwrap(pending.Pop()))
            {
                case IInvocationOperation invocation when _api.IsRent(invocation.TargetMethod, out ResourceKind kind):
                    rents.Add(kind);
                    break;
                case IConditionalOperation { WhenFalse: { } whenFalse } conditional:
                    pending.Push(conditional.WhenTrue);
                    pending.Push(whenFalse);
                    break;
                case ICoalesceOperation coalesce:
                    pending.Push(coalesce.Value);
                    pending.Push(coalesce.WhenNull);
                    break;
            }
        }

        return rents;
    }

    private void FindEscapes()
    {
        List<TrackedLocal> bySlot = [.. Tracked.Values];
        bySlot.Sort((left, right) => left.Slot.CompareTo(right.Slot));
        HashSet<ILocalSymbol> captured = new(SymbolEqualityComparer.Default);
        foreach (ILocalReferenceOperation reference in _references)
        {
            if (!Tracked.TryGetValue(reference.Local, out TrackedLocal? tracked))
            {
                continue;
            }

            TrackedLocal owner = tracked.IsView ? bySlot[tracked.Parent] : tracked;
            IOperation? declaring = _declaringFunction.TryGetValue(reference.Local, out IOperation? function) ? function : null;
            IOperation? user = FunctionOf(reference);
            if (ReferenceEquals(user, declaring))
            {
                owner.Escapes |= Escapes(reference);
                continue;
            }

            if (Changes(reference))
            {
                // A lambda or local function that writes the local or gives the item back has an owner the flow
                // analysis cannot follow: the item is not tracked.
                captured.Add(owner.Local);
                continue;
            }

            // One that only reads it may run at any time: no leak is reported for the item, but its return is still followed.
            owner.Escapes = true;
            if (IsUse(reference, tracked))
            {
                for (; user is not null && !ReferenceEquals(user, declaring); user = FunctionOf(user))
                {
                    IMethodSymbol symbol = user is ILocalFunctionOperation local ? local.Symbol : ((IAnonymousFunctionOperation)user).Symbol;
                    if (!CapturedUses.TryGetValue(symbol, out List<TrackedLocal>? uses) || !uses.Contains(tracked))
                    {
                        Add(CapturedUses, symbol, tracked);
                    }
                }
            }
        }

        foreach (TrackedLocal tracked in bySlot)
        {
            if (captured.Contains(tracked.Local) || (tracked.IsView && captured.Contains(bySlot[tracked.Parent].Local)))
            {
                tracked.Escapes = true;
                Tracked.Remove(tracked.Local);
            }
        }

        foreach (List<TrackedLocal> uses in CapturedUses.Values)
        {
            uses.RemoveAll(use => !Tracked.ContainsKey(use.Local));
        }
    }

    /// <summary>Whether a reference writes the local (or may, by reference) or gives its item back to the pool.</summary>
    private bool Changes(ILocalReferenceOperation reference)
    {
        IOperation current = Outermost(reference);
        return current.Parent switch
        {
            IAssignmentOperation assignment => assignment.Target == current,
            IIncrementOrDecrementOperation or ITupleOperation or IUsingOperation or IUsingDeclarationOperation => true,
            IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out } => true,
            IArgumentOperation { Parent: IInvocationOperation invocation } => _api.IsReturn(invocation),
            IInvocationOperation invocation => PoolApi.IsDispose(invocation.TargetMethod) && invocation.Instance == current,
            _ => false,
        };
    }

    private static IOperation? FunctionOf(IOperation operation)
    {
        for (IOperation? current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current is IAnonymousFunctionOperation or ILocalFunctionOperation)
            {
                return current;
            }
        }

        return null;
    }

    private bool Escapes(ILocalReferenceOperation reference)
    {
        IOperation current = reference;
        while (current.Parent is { } parent)
        {
            if (current.Type is { IsRefLikeType: true } && parent is not IReturnOperation)
            {
                // A span cannot outlive the method except by being returned.
                return false;
            }

            switch (parent)
            {
                case IConversionOperation:
                case IInvocationOperation invocation when IsViewMethod(invocation.TargetMethod) && invocation.Instance == current:
                case IPropertyReferenceOperation { Property.Name: "Memory" or "Span" or "Array" } when ((IPropertyReferenceOperation)parent).Instance == current:
                    current = parent;
                    continue;
                case IArgumentOperation { Parent: IInvocationOperation viewCall } when IsViewMethod(viewCall.TargetMethod) && viewCall.Arguments[0] == parent:
                    current = viewCall;
                    continue;
                case IArgumentOperation { Parent: IObjectCreationOperation creation } when IsViewType(creation.Type) && creation.Arguments[0] == parent:
                    current = creation;
                    continue;
                case IArgumentOperation argument:
                    return EscapesThroughArgument(argument);
                case ISimpleAssignmentOperation assignment:
                    return assignment.Value == current && !(assignment.Target is ILocalReferenceOperation target && Tracked.TryGetValue(target.Local, out TrackedLocal? view) && view.IsView);
                case IVariableInitializerOperation { Parent: IVariableDeclaratorOperation declarator }:
                    return !(Tracked.TryGetValue(declarator.Symbol, out TrackedLocal? declared) && declared.IsView);
                case IPropertyReferenceOperation or IArrayElementReferenceOperation or IInvocationOperation or IBinaryOperation or IIsNullOperation or IIsPatternOperation
                    or IIsTypeOperation or IExpressionStatementOperation or IUsingOperation or IUsingDeclarationOperation or IForEachLoopOperation
                    or IVariableDeclaratorOperation or IFieldReferenceOperation or IEventReferenceOperation or IAwaitOperation:
                    return false;
                default:
                    return true;
            }
        }

        return false;
    }

    private bool EscapesThroughArgument(IArgumentOperation argument)
    {
        if (argument.Parameter is not { } parameter || parameter.RefKind is RefKind.Ref or RefKind.Out)
        {
            return true;
        }

        if (argument.Parent is IInvocationOperation invocation && (_api.IsReturn(invocation) || PoolApi.IsDispose(invocation.TargetMethod)))
        {
            return false;
        }

        return !parameter.Type.IsRefLikeType && !IsNonOwning(parameter.ContainingSymbol?.ContainingType);
    }

    /// <summary>Types whose methods read or write an array they are passed but never keep it.</summary>
    internal static bool IsNonOwning(INamedTypeSymbol? type)
    {
        foreach (ITypeSymbol t in AndBaseTypes(type))
        {
            switch (t.ContainingNamespace?.ToDisplayString())
            {
                case "System" when t.Name is "Array" or "Buffer" or "MemoryExtensions" or "BitConverter" or "Convert" or "String" or "Console" or "Math" or "Random":
                case "System.IO" when t.Name is "Stream" or "TextReader" or "TextWriter" or "BinaryReader" or "BinaryWriter":
                case "System.IO.Pipelines" when t.Name is "PipeWriter":
                case "System.Net.Sockets" when t.Name is "Socket":
                case "System.Text" when t.Name is "Encoding" or "Encoder" or "Decoder" or "StringBuilder":
                case "System.Buffers.Binary":
                case "System.Buffers.Text":
                case "System.Security.Cryptography" when t.Name is "RandomNumberGenerator" or "HashAlgorithm":
                case "Xunit" when t.Name is "Assert":
                    return true;
            }
        }

        return false;
    }

    private void FindFlagsAndPools()
    {
        int slot = TrackedCount * FlowWalker.Stride;
        foreach (ISymbol candidate in _flagCandidates.Take(MaximumFlags))
        {
            Flags[candidate] = slot++;
        }

        foreach (KeyValuePair<string, (int Count, HashSet<ISymbol> Reads)> comparison in _comparisons)
        {
            if (comparison.Value.Count < 2 || Conditions.Count == MaximumFlags)
            {
                continue;
            }

            Conditions[comparison.Key] = slot;
            foreach (ISymbol read in comparison.Value.Reads)
            {
                Add(ConditionsReading, read, slot);
            }

            slot++;
        }

        foreach (KeyValuePair<ILocalSymbol, List<IOperation?>> pair in _writes)
        {
            ISymbol? pool = pair.Value.Count != 1 ? null : Unwrap(pair.Value[0]) switch
            {
                IPropertyReferenceOperation { Property: { IsStatic: true, Name: "Shared" } shared } => shared,
                IObjectCreationOperation or IInvocationOperation { TargetMethod: { IsStatic: true, Name: "Create" } } => pair.Key,
                _ => null,
            };
            if (pool is not null)
            {
                PoolLocals[pair.Key] = pool;
            }
        }
    }
}
