using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// A guarded or leak-tracking pool's bookkeeping (a debug mode: a lock per rent and return): items out are held for
/// <see cref="GetLeaks"/>, items ever handed out are known weakly so dropped ones can be collected. A stale return looks
/// like the current holder's and is accepted: only leases rule it out.
/// </summary>
/// <typeparam name="TItem">The pooled item: an array, an object.</typeparam>
internal sealed class ItemGuard<TItem>
    where TItem : class
{
    /// <summary>The most frames a recorded stack keeps, innermost first: enough to name the call site and its callers, and a bound on what each outstanding item holds.</summary>
    internal const int MaxStackFrames = 64;

    private readonly Dictionary<TItem, RentRecord> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly ConditionalWeakTable<TItem, RentRecord> _known = new();
    private readonly IObservablePool _engine;
    private readonly Func<TItem, int>? _itemBytes;
    private readonly bool _keepStacks;
    private readonly int _guardFrames;
    private readonly PoolMisusePolicy _policy;
    private readonly Action<PoolMisuse>? _onMisuse;

    /// <summary>The bookkeeping of the pool <paramref name="engine"/> (its id and name go into events), items sized by <paramref name="itemBytes"/> (null: 0).</summary>
    /// <remarks><paramref name="guardFrames"/> is the most library frames a rent stack leaves out (fewer once the JIT inlines some); <paramref name="keepStacks"/> records one per rent.</remarks>
    public ItemGuard(IObservablePool engine, Func<TItem, int>? itemBytes, bool keepStacks, int guardFrames, PoolMisusePolicy policy, Action<PoolMisuse>? onMisuse)
    {
        _engine = engine;
        _itemBytes = itemBytes;
        _keepStacks = keepStacks;
        _guardFrames = guardFrames;
        _policy = policy;
        _onMisuse = onMisuse;
    }

    /// <summary>Records that <paramref name="item"/> was handed out; true for a re-rent, whose last return asked for clearing when <paramref name="cleared"/>.</summary>
    public bool OnRent(TItem item, out bool cleared)
    {
        StackTrace? stack = _keepStacks ? CallerStack(_guardFrames) : null;
        bool wasReturned;
        lock (_outstanding)
        {
            if (!_known.TryGetValue(item, out RentRecord? record))
            {
                record = new RentRecord();
                _known.Add(item, record);
            }

            wasReturned = record.Returned;
            cleared = record.Cleared;
            record.Returned = false;
            record.RentStack = stack;
            _outstanding[item] = record;
        }

        return wasReturned;
    }

    /// <summary>Checks a return (clearing asked for when <paramref name="cleared"/>); false for a double or foreign return, which is reported per the policy.</summary>
    /// <exception cref="InvalidOperationException">The return is refused and the policy is <see cref="PoolMisusePolicy.Throw"/>.</exception>
    public bool OnReturn(TItem item, bool cleared)
    {
        PoolMisuseKind kind;
        lock (_outstanding)
        {
            if (_outstanding.Remove(item, out RentRecord? record))
            {
                record.Returned = true;
                record.Cleared = cleared;
                record.RentStack = null;
                return true;
            }

            kind = _known.TryGetValue(item, out _) ? PoolMisuseKind.DoubleReturn : PoolMisuseKind.ForeignReturn;
        }

        Report(kind, item, rentStack: null);
        return false;
    }

    /// <summary>Where <paramref name="item"/>, handed out and not returned, was rented; null when it is not out or stacks are not kept.</summary>
    public StackTrace? GetRentStack(TItem item)
    {
        lock (_outstanding)
        {
            return _outstanding.TryGetValue(item, out RentRecord? record) ? record.RentStack : null;
        }
    }

    /// <summary>Stops tracking <paramref name="item"/> as out: its holder was collected with it, and it will never come back.</summary>
    public void Forget(TItem item)
    {
        lock (_outstanding)
        {
            _outstanding.Remove(item);
        }
    }

    /// <summary>The rent stacks of the items out (empty when stacks are not kept); each is also raised as a <c>Leak</c> event.</summary>
    public List<StackTrace> GetLeaks()
    {
        var leaks = new List<(TItem Item, StackTrace Stack)>();
        lock (_outstanding)
        {
            foreach ((TItem item, RentRecord record) in _outstanding)
            {
                if (record.RentStack is { } stack)
                {
                    leaks.Add((item, stack));
                }
            }
        }

        foreach ((TItem item, StackTrace stack) in leaks)
        {
            if (NativePoolEventSource.Log.IsEnabled())
            {
                NativePoolEventSource.Log.Leak(NativePoolEventSource.ItemId(item), SizeOf(item), _engine.Id, stack.ToString(), _engine.Name);
            }
        }

        return leaks.ConvertAll(static leak => leak.Stack);
    }

    /// <summary>Raises the misuse's event, then applies the policy (which counts it in the pool's statistics unless it ignores it).</summary>
    /// <exception cref="InvalidOperationException">The policy is <see cref="PoolMisusePolicy.Throw"/>.</exception>
    public void Report(PoolMisuseKind kind, TItem item, StackTrace? rentStack)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            if (kind == PoolMisuseKind.DoubleReturn)
            {
                NativePoolEventSource.Log.DoubleReturn(NativePoolEventSource.ItemId(item), SizeOf(item), _engine.Id, _engine.Name);
            }
            else
            {
                NativePoolEventSource.Log.Misuse(NativePoolEventSource.ItemId(item), _engine.Id, (int)kind, _engine.Name);
            }
        }

        MisuseReporter.Report(_engine, _policy, _onMisuse, kind, rentStack);
    }

    private int SizeOf(TItem item) => _itemBytes is null ? 0 : _itemBytes(item);

    /// <summary>What the guard knows about one item the pool handed out: whether it is in the pool (returned and not rented since), whether its last return asked for clearing, and where it was last rented (while it is out and stacks are kept).</summary>
    private sealed class RentRecord
    {
        public bool Returned;
        public bool Cleared;
        public StackTrace? RentStack;
    }

    /// <summary>The stack from the library's caller outward (at most <see cref="MaxStackFrames"/> frames), past at most <paramref name="guardFrames"/> library frames above this one.</summary>
    /// <remarks>Counted, not assumed: once tiered compilation inlines a frame of the path here, a fixed skip would cut the caller's own frame.</remarks>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static StackTrace CallerStack(int guardFrames)
    {
        // One walk of the stack (its cost grows with the caller's depth); the library's frames and the frames past the
        // bound are sliced off the result, so what is kept does not grow with the depth.
        var full = new StackTrace(false);
        StackFrame[] frames = full.GetFrames();
        int skip = 0;
        while (skip < frames.Length && skip <= guardFrames && IsLibraryFrame(frames[skip]))
        {
            skip++;
        }

        int end = Math.Min(frames.Length, skip + MaxStackFrames);
        return skip == 0 && end == frames.Length ? full : new StackTrace(frames[skip..end]);
    }

    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "A frame whose method metadata was trimmed away counts as the caller's: the stack is then only longer.")]
    private static bool IsLibraryFrame(StackFrame? frame)
    {
        Assembly? assembly = frame?.GetMethod()?.DeclaringType?.Assembly;
        return assembly == typeof(ItemGuard<>).Assembly || assembly == typeof(StripedPool<>).Assembly;
    }
}
