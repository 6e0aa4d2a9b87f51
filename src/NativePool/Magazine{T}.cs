using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A thread's extra items of one size class: a LIFO stack the owner fills and empties with plain stores.</summary>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class Magazine<T> where T : class
{
    /// <summary>Creates an empty magazine of <paramref name="capacity"/> items.</summary>
    public Magazine(int capacity) => Items = new T?[capacity];

    /// <summary>The items; those at <c>[0, Count)</c> are parked, the bottom ones the coldest.</summary>
    public T?[] Items { get; }

    /// <summary>Items parked (owner-written; other threads read it only as a snapshot).</summary>
    public int Count;

    /// <summary>Takes the top (warmest) item, skipping the gaps a disposal or a finalizer left; null when the magazine is empty.</summary>
    public T? Pop()
    {
        ref T? first = ref MemoryMarshal.GetArrayDataReference(Items);
        int count = Count;
        while (count != 0)
        {
            ref T? top = ref Unsafe.Add(ref first, --count);
            T? item = top;
            top = null;

            // A disposal or a finalizer may have emptied the magazine under us: a null is skipped, not handed out.
            if (item is not null)
            {
                Count = count;
                return item;
            }
        }

        Count = 0;
        return null;
    }

    /// <summary>Closes the gaps a disposal or the owner's own release-all left; returns the new count.</summary>
    public int Compact()
    {
        T?[] items = Items;
        int live = 0;
        for (int i = 0; i < Count; i++)
        {
            T? item = items[i];
            if (item is not null)
            {
                // Through refs: stores into a T[] of shared generic code would pay a covariance check each.
                ref T? first = ref MemoryMarshal.GetArrayDataReference(items);
                Unsafe.Add(ref first, i) = null;
                Unsafe.Add(ref first, live++) = item;
            }
        }

        Count = live;
        return live;
    }
}
