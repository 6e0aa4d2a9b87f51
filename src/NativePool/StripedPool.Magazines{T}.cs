using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <content>The magazines (<see cref="Magazine{T}"/>) behind each thread's slots: spill of a full one's coldest half and refill of an empty one, a claim each, and the flush a trim asks for.</content>
internal sealed partial class StripedPool<T>
{
    private ReturnResult ReturnToMagazine(int sizeClass, T item, ThreadCache<T> cache, int capacity)
    {
        Magazine<T> magazine = GetMagazine(cache, sizeClass, capacity);
        T?[] items = magazine.Items;
        ref T? first = ref MemoryMarshal.GetArrayDataReference(items);
        int count = magazine.Count;

        // The cheap double-return check, as on a stripe: the item returned just before this one sits on top.
        if (count != 0 && ReferenceEquals(Unsafe.Add(ref first, count - 1), item))
        {
            return ReturnResult.Duplicate;
        }

        if (count == capacity && (count = magazine.Compact()) == capacity)
        {
            count = SpillToStripes(sizeClass, cache, magazine, capacity);
        }

        ref T? slot = ref cache.Slot(sizeClass);

        // Keep the warmest item in the slot: the one being returned goes there, the parked one onto the magazine.
        T? parked = slot;
        if (parked is not null)
        {
            // Through a ref, not an indexer: a store into a T[] of shared generic code would pay a covariance check.
            Unsafe.Add(ref first, count++) = parked;
        }

        slot = item;
        magazine.Count = count;
        return ReturnResult.Stored;
    }

    /// <summary>Moves the coldest half of a full magazine to the stripes with one claim (dropping what does not fit).</summary>
    /// <returns>The magazine's new count.</returns>
    private int SpillToStripes(int sizeClass, ThreadCache<T> cache, Magazine<T> magazine, int capacity)
    {
        int batch = BatchSize(capacity);
        T?[] items = magazine.Items;
        MoveToStripes(sizeClass, cache, items.AsSpan(0, batch));

        int count = magazine.Count;
        Array.Copy(items, batch, items, 0, count - batch);
        Array.Clear(items, count - batch, batch);
        magazine.Count = count - batch;
        return count - batch;
    }

    /// <summary>Moves <paramref name="items"/> (a magazine's coldest) onto the class's stripes, one claim per stripe with room, and drops what none takes.</summary>
    private void MoveToStripes(int sizeClass, ThreadCache<T> cache, ReadOnlySpan<T?> items)
    {
        StripeSet<T> set = _classes[sizeClass] ?? CreateStripes(sizeClass);
        int allowed = TakeBudget(sizeClass, items.Length);
        int moved = 0;
        while (moved < allowed && set.PushBatch(HomeStripe(cache), items[moved..allowed]) is int pushed && pushed != 0)
        {
            moved += pushed;
        }

        ReleaseBudget(sizeClass, allowed - moved);
        foreach (T? dropped in items[moved..])
        {
            if (dropped is not null)
            {
                _ = Drop(dropped, sizeClass, cache);
            }
        }
    }

    private ReturnResult Drop(T item, int sizeClass, ThreadCache<T> cache)
    {
        OwnerCounter.Increment(ref cache._dropped);
        LogDropped(item, sizeClass);
        Discard(item);
        return ReturnResult.Dropped;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Magazine<T> GetMagazine(ThreadCache<T> cache, int sizeClass, int capacity)
    {
        Debug.Assert((uint)sizeClass < (uint)SlotBuffer<T>.Length && capacity > 0, "Only a class with a magazine, validated by the facade, gets here.");
        Magazine<T>?[]? magazines = cache._magazines;
        if (magazines is not null)
        {
            // Through a ref: the element's address in an array of a shared generic type would cost a type-checking
            // helper call (the class was validated by the caller).
            Magazine<T>? magazine = Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(magazines), sizeClass);
            if (magazine is not null)
            {
                return magazine;
            }
        }

        return CreateMagazine(cache, sizeClass, capacity);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Magazine<T> CreateMagazine(ThreadCache<T> cache, int sizeClass, int capacity)
    {
        Magazine<T>?[] magazines = cache._magazines ??= new Magazine<T>?[SlotBuffer<T>.Length];
        return magazines[sizeClass] ??= new Magazine<T>(capacity);
    }

    /// <summary>Half a magazine, rounded up: what one claim moves between a magazine and the stripes.</summary>
    private static int BatchSize(int capacity) => (capacity + 1) / 2;

    /// <summary>Empties the calling thread's magazines into the stripes (the trimmer asked for it).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FlushMagazines(ThreadCache<T> cache)
    {
        // Volatile: clears the trimmer's request; a request raised after this point is honoured next time.
        Volatile.Write(ref cache._flushRequested, 0);
        if (cache._magazines is null)
        {
            return;
        }

        for (int c = 0; c < _classCount; c++)
        {
            Magazine<T>? magazine = cache._magazines[c];
            if (magazine is null || magazine.Count == 0)
            {
                continue;
            }

            T?[] items = magazine.Items;
            int count = magazine.Compact();
            MoveToStripes(c, cache, items.AsSpan(0, count));

            Array.Clear(items, 0, count);
            magazine.Count = 0;
        }
    }
}
