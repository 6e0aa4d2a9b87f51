using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool.Benchmarks.Peers;

/// <summary>
/// The engine's stripe algorithm (<see cref="StripeSet{T}"/>: claim with one compare-and-swap, LIFO push/pop under the
/// claim, release with a volatile write) without any padding: the headers of all stripes are packed 8 bytes apart and
/// the stripes' slots follow each other, so neighbouring stripes share cache lines. Bench-only, to measure what the
/// engine's padding buys (the padded-vs-unpadded benchmark); never used by the library.
/// </summary>
/// <typeparam name="T">The item type.</typeparam>
internal sealed class UnpaddedStripeSet<T> where T : class
{
    private readonly Header[] _headers;
    private readonly T?[] _slots;
    private readonly int _capacity;

    public UnpaddedStripeSet(int stripeCount, int capacityPerStripe)
    {
        _capacity = capacityPerStripe;
        _headers = new Header[stripeCount];
        _slots = new T?[stripeCount * capacityPerStripe];
    }

    /// <summary>One attempt to pop the top item of <paramref name="stripe"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryPop(int stripe, out T? item)
    {
        ref Header header = ref _headers[stripe];

        // Settles two threads operating on one stripe: the loser gives up instead of waiting.
        if (Interlocked.CompareExchange(ref header.Claim, 1, 0) != 0)
        {
            item = null;
            return false;
        }

        int count = header.Count;
        bool taken = count != 0;
        item = null;
        if (taken)
        {
            ref T? slot = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), (stripe * _capacity) + count - 1);
            item = slot;
            slot = null;
            header.Count = count - 1;
        }

        // Release: publishes the slot and count stores to the next thread that claims this stripe.
        Volatile.Write(ref header.Claim, 0);
        return taken;
    }

    /// <summary>One attempt to push <paramref name="item"/> onto <paramref name="stripe"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryPush(int stripe, T item)
    {
        ref Header header = ref _headers[stripe];

        // Settles two threads operating on one stripe: the loser gives up instead of waiting.
        if (Interlocked.CompareExchange(ref header.Claim, 1, 0) != 0)
        {
            return false;
        }

        int count = header.Count;
        bool stored = count < _capacity;
        if (stored)
        {
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), (stripe * _capacity) + count) = item;
            header.Count = count + 1;
        }

        // Release: publishes the slot and count stores to the next thread that claims this stripe.
        Volatile.Write(ref header.Claim, 0);
        return stored;
    }

    /// <summary>A stripe's claim word and count, 8 bytes, packed next to its neighbours'. Mutable struct: do not make readonly.</summary>
    private struct Header
    {
        public int Claim;
        public int Count;
    }
}
