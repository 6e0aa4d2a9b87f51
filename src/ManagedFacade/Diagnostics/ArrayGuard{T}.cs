using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>
/// The bookkeeping of a guarded or leak-tracking <see cref="StripedArrayPool{T}"/>: which arrays are out, which the
/// pool ever handed out, and, for unmanaged elements, a poison pattern written on return and checked on the next rent.
/// </summary>
/// <remarks>
/// A debug mode: one lock around a reference-keyed dictionary per rent and return, a pass over the array on each
/// return and re-rent, and a stack trace per rent when stacks are kept. The arrays ever handed out are remembered
/// weakly (a <see cref="ConditionalWeakTable{TKey, TValue}"/>), so a dropped or trimmed array can still be collected;
/// the outstanding ones are held strongly until they come back, so <see cref="GetLeaks"/> can name them.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class ArrayGuard<T>
{
    /// <summary>The byte every element of a returned unmanaged array is filled with.</summary>
    public const byte Poison = 0xDB;

    private static readonly bool s_canPoison = !RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    private readonly Dictionary<T[], RentRecord> _outstanding = new(ReferenceEqualityComparer.Instance);
    private readonly ConditionalWeakTable<T[], RentRecord> _known = new();
    private readonly StripedPool<T[]> _engine;
    private readonly bool _detectMisuse;
    private readonly bool _keepStacks;
    private readonly PoolMisusePolicy _policy;
    private readonly Action<PoolMisuse>? _onMisuse;

    public ArrayGuard(StripedPool<T[]> engine, bool detectMisuse, bool keepStacks, PoolMisusePolicy policy, Action<PoolMisuse>? onMisuse)
    {
        _engine = engine;
        _detectMisuse = detectMisuse;
        _keepStacks = keepStacks;
        _policy = policy;
        _onMisuse = onMisuse;
    }

    /// <summary>Whether returned arrays are filled with <see cref="Poison"/> (misuse detection on unmanaged elements).</summary>
    public bool PoisonsOnReturn => _detectMisuse && s_canPoison;

    /// <summary>Records that <paramref name="array"/> was handed out; checks its poison if it was handed out before.</summary>
    /// <param name="array">The rented array (not empty).</param>
    public void OnRent(T[] array)
    {
        StackTrace? stack = _keepStacks ? new StackTrace(2, false) : null;
        bool wasReturned;
        bool cleared;
        RentRecord record;
        lock (_outstanding)
        {
            if (!_known.TryGetValue(array, out record!))
            {
                record = new RentRecord();
                _known.Add(array, record);
            }

            wasReturned = record.Returned;
            cleared = record.Cleared;
            record.Returned = false;
            record.RentStack = stack;
            _outstanding[array] = record;
        }

        if (_detectMisuse && wasReturned && s_canPoison)
        {
            Span<byte> bytes = AsBytes(array);
            bool intact = !bytes.ContainsAnyExcept(Poison);
            if (cleared)
            {
                // The caller who returned it asked for a cleared array: the next renter gets one.
                bytes.Clear();
            }

            if (!intact)
            {
                Report(PoolMisuseKind.WriteAfterReturn, array, rentStack: null);
            }
        }
    }

    /// <summary>Checks a return; true when the array may go back to the pool.</summary>
    /// <param name="array">The returned array (not empty).</param>
    /// <param name="cleared">Whether the caller or the pool's options asked for the array to be cleared.</param>
    /// <returns>False for a double or foreign return, which the pool must not keep.</returns>
    public bool OnReturn(T[] array, bool cleared)
    {
        PoolMisuseKind kind;
        StackTrace? rentStack = null;
        lock (_outstanding)
        {
            if (_outstanding.Remove(array, out RentRecord? record))
            {
                record.Returned = true;
                record.Cleared = cleared;
                record.RentStack = null;
                kind = (PoolMisuseKind)(-1);
            }
            else if (_known.TryGetValue(array, out record))
            {
                kind = PoolMisuseKind.DoubleReturn;
            }
            else
            {
                kind = PoolMisuseKind.ForeignReturn;
            }
        }

        if (kind < 0)
        {
            if (_detectMisuse && s_canPoison)
            {
                // Nobody else can rent the array until the pool has it back, so this fill races with nothing.
                AsBytes(array).Fill(Poison);
            }

            return true;
        }

        Report(kind, array, rentStack);
        return false;
    }

    /// <summary>The rent stacks of the arrays handed out and not returned (empty when stacks are not kept).</summary>
    /// <returns>A new list; each leak is also raised as a <c>Leak</c> event.</returns>
    public List<StackTrace> GetLeaks()
    {
        var leaks = new List<(T[] Array, StackTrace Stack)>();
        lock (_outstanding)
        {
            foreach (KeyValuePair<T[], RentRecord> pair in _outstanding)
            {
                if (pair.Value.RentStack is { } stack)
                {
                    leaks.Add((pair.Key, stack));
                }
            }
        }

        var stacks = new List<StackTrace>(leaks.Count);
        foreach ((T[] array, StackTrace stack) in leaks)
        {
            stacks.Add(stack);
            if (NativePoolEventSource.Log.IsEnabled())
            {
                NativePoolEventSource.Log.Leak(
                    NativePoolEventSource.ItemId(array), NativePoolEventSource.Size((long)array.Length * Unsafe.SizeOf<T>()), _engine.Id, stack.ToString(), _engine.Name);
            }
        }

        return stacks;
    }

    /// <summary>The array's bytes (the first 2 GiB of a larger one); only called for unmanaged elements.</summary>
    private static Span<byte> AsBytes(T[] array) =>
        MemoryMarshal.CreateSpan(
            ref Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(array)),
            (int)Math.Min((long)array.Length * Unsafe.SizeOf<T>(), int.MaxValue));

    private void Report(PoolMisuseKind kind, T[] array, StackTrace? rentStack)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            if (kind == PoolMisuseKind.DoubleReturn)
            {
                NativePoolEventSource.Log.DoubleReturn(
                    NativePoolEventSource.ItemId(array), NativePoolEventSource.Size((long)array.Length * Unsafe.SizeOf<T>()), _engine.Id, _engine.Name);
            }
            else
            {
                NativePoolEventSource.Log.Misuse(NativePoolEventSource.ItemId(array), _engine.Id, (int)kind, _engine.Name);
            }
        }

        MisuseReporter.Report(_policy, _onMisuse, kind, _engine.Name, rentStack);
    }

    /// <summary>What the guard knows about one array the pool handed out.</summary>
    private sealed class RentRecord
    {
        /// <summary>In the pool (returned and not rented since).</summary>
        public bool Returned;

        /// <summary>The last return asked for a cleared array.</summary>
        public bool Cleared;

        /// <summary>Where it was last rented, while it is out and stacks are kept.</summary>
        public StackTrace? RentStack;
    }
}
