using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// A bounded single-producer, single-consumer ring of references: one thread enqueues, one other thread dequeues, and
/// neither allocates. The two indices sit on separate cache lines so the sides do not share a line but for the slots.
/// </summary>
public sealed class SpscRing<T>
    where T : class
{
    private readonly T?[] _slots;
    private readonly int _mask;
    private PaddedIndex _head; // written by the consumer only
    private PaddedIndex _tail; // written by the producer only

    /// <summary>Creates a ring of <paramref name="capacity"/> slots (a power of two).</summary>
    public SpscRing(int capacity)
    {
        if (capacity <= 0 || (capacity & (capacity - 1)) != 0)
        {
            throw new ArgumentOutOfRangeException(nameof(capacity), capacity, "The capacity must be a power of two.");
        }

        _slots = new T?[capacity];
        _mask = capacity - 1;
    }

    /// <summary>Adds <paramref name="item"/>; false when the ring is full. Producer thread only.</summary>
    public bool TryEnqueue(T item)
    {
        long tail = _tail.Value;

        // Volatile: the consumer frees a slot before advancing head; reading head acquires that the slot is empty.
        if (tail - Volatile.Read(ref _head.Value) == _slots.Length)
        {
            return false;
        }

        _slots[tail & _mask] = item;

        // Volatile: publishes the item in its slot before the consumer can see the advanced tail.
        Volatile.Write(ref _tail.Value, tail + 1);
        return true;
    }

    /// <summary>Takes the oldest item; false when the ring is empty. Consumer thread only.</summary>
    public bool TryDequeue(out T? item)
    {
        long head = _head.Value;

        // Volatile: the producer writes the slot before advancing tail; reading tail acquires the slot's item.
        if (head == Volatile.Read(ref _tail.Value))
        {
            item = null;
            return false;
        }

        long slot = head & _mask;
        item = _slots[slot];
        _slots[slot] = null;

        // Volatile: hands the emptied slot back to the producer only after the item was taken out of it.
        Volatile.Write(ref _head.Value, head + 1);
        return true;
    }
}

/// <summary>An index of <see cref="SpscRing{T}"/> alone on its cache line (64 bytes of padding on either side).</summary>
[StructLayout(LayoutKind.Explicit, Size = 136)]
internal struct PaddedIndex
{
    [FieldOffset(64)]
    public long Value;
}