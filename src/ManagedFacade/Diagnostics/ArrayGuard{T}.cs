using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A guarded or leak-tracking array pool's bookkeeping: <see cref="ItemGuard{TItem}"/>, plus for unmanaged elements a poison pattern written on return and checked on the next rent, which sees a write made while the array sat in the pool.</summary>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class ArrayGuard<T>
{
    /// <summary>The byte every element of a returned unmanaged array is filled with.</summary>
    public const byte Poison = 0xDB;

    /// <summary>The most frames a rent stack leaves out: the item guard's, this guard's, the pool's observed rent, its rent miss and up to two rents.</summary>
    private const int GuardFrames = 6;

    private static readonly bool s_canPoison = !RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    private readonly ItemGuard<T[]> _items;
    private readonly bool _detectMisuse;

    public ArrayGuard(StripedPool<T[]> engine, bool detectMisuse, bool keepStacks, PoolMisusePolicy policy, Action<PoolMisuse>? onMisuse)
    {
        _items = new ItemGuard<T[]>(engine, static array => NativePoolEventSource.Size((long)array.Length * Unsafe.SizeOf<T>()), keepStacks, GuardFrames, policy, onMisuse);
        _detectMisuse = detectMisuse;
    }

    /// <summary>Whether returned arrays are filled with <see cref="Poison"/> (misuse detection on unmanaged elements).</summary>
    public bool PoisonsOnReturn => _detectMisuse && s_canPoison;

    /// <summary>Records that <paramref name="array"/> (not empty) was handed out; checks its poison if it was handed out before.</summary>
    public void OnRent(T[] array)
    {
        bool wasReturned = _items.OnRent(array, out bool cleared);
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
                _items.Report(PoolMisuseKind.WriteAfterReturn, array, rentStack: null);
            }
        }
    }

    /// <summary>Checks a return of <paramref name="array"/> (clearing asked for when <paramref name="cleared"/>); false for a double or foreign return, which the pool must not keep.</summary>
    public bool OnReturn(T[] array, bool cleared)
    {
        if (!_items.OnReturn(array, cleared))
        {
            return false;
        }

        if (_detectMisuse && s_canPoison)
        {
            // Nobody else can rent the array until the pool has it back, so this fill races with nothing.
            AsBytes(array).Fill(Poison);
        }

        return true;
    }

    /// <summary>Stops tracking <paramref name="array"/> as out: its holder was collected with it.</summary>
    public void Forget(T[] array) => _items.Forget(array);

    /// <summary>The rent stacks of the arrays out (empty when stacks are not kept); each is also raised as a <c>Leak</c> event.</summary>
    public List<StackTrace> GetLeaks() => _items.GetLeaks();

    /// <summary>The array's bytes (the first 2 GiB of a larger one); only called for unmanaged elements.</summary>
    private static Span<byte> AsBytes(T[] array) =>
        MemoryMarshal.CreateSpan(
            ref Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(array)),
            (int)Math.Min((long)array.Length * Unsafe.SizeOf<T>(), int.MaxValue));
}
