using System;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// One size class's store: a power-of-two number of stripes, each a bounded LIFO stack of items, all of whose slots
/// live in one array on the pinned object heap.
/// </summary>
/// <remarks>
/// <para>
/// Layout. The slot array is pinned, so each stripe's region can start on a <see cref="CacheLine.Size"/> boundary,
/// fixed once from its address; the stride is the capacity rounded up to whole lines, so no two stripes share a line.
/// The padded headers live in a second array with a guard element at each end.
/// </para>
/// <para>
/// Concurrency. A push, pop or trim claims the stripe with one compare-and-swap on its header; a loser does not wait
/// but tries other stripes, then retries a bounded number of rounds (<see cref="ContendedRounds"/>; object pools for as
/// long as the stripes stay busy), spinning, then yielding its core, before it allocates or drops. The yields matter
/// when threads outnumber cores: a holder preempted inside its claim keeps the stripe for a whole quantum, and giving
/// up after spinning turned almost every return into a drop at large bounds. Inside the claim the stack is plain
/// memory, published by the releasing write: one interlocked instruction per operation, O(1), exact LIFO and count.
/// </para>
/// <para>
/// Occupancy. <see cref="OccupancyMasks"/> says which stripes may hold items and which may be full, kept lazily (only a
/// claim holder flips its stripe's bit, on the empty/holding and full/room edges), so a stripe with items always has
/// its <c>HasItems</c> bit and one with room never its <c>Full</c> bit; a stale bit costs one claim that fixes it. A
/// rent on an empty pool or a return to a full one reads one word: O(1), not O(stripes).
/// </para>
/// </remarks>
internal sealed partial class StripeSet<T> where T : class
{
    /// <summary>How many busy stripes a rent or a return tries per round before it backs off (stripes found empty or full do not count).</summary>
    internal const int MaxStealAttempts = 4;

    /// <summary>How many rounds a rent or return retries busy stripes before it allocates or drops (see <see cref="BackOff"/>).</summary>
    internal const int ContendedRounds = 10;

    /// <summary>The contended rounds that spin before the rest yield.</summary>
    internal const int SpinningRounds = 3;

    private readonly T?[] _slots;
    private readonly StripeHeader[] _headers;
    private readonly int _slotBase;
    private readonly int _slotStride;
    private readonly int _capacity;
    private readonly int _totalCapacity;
    private readonly int _roundLimit;
    private readonly int _stripeMask;
    private readonly long _allStripes;
    private OccupancyMasks _masks; // mutable: do not make readonly

    /// <summary>Creates the stripes of one class: <paramref name="totalCapacity"/> (-1: stripes × capacity) is split as evenly as it goes, so the stripes enforce an exact bound with no shared counter.</summary>
    /// <remarks><paramref name="waitForBusyStripes"/> retries busy stripes for as long as they stay busy: for items expensive to build (objects), where building one
    /// because a claim holder was preempted costs more than waiting for it.</remarks>
    public StripeSet(int stripeCount, int capacityPerStripe, int totalCapacity = -1, bool waitForBusyStripes = false)
    {
        Debug.Assert(BitOperations.IsPow2(stripeCount) && stripeCount <= 64);
        Debug.Assert(capacityPerStripe >= 1);
        Debug.Assert(totalCapacity <= (long)stripeCount * capacityPerStripe);

        _capacity = capacityPerStripe;
        _totalCapacity = totalCapacity < 0 ? stripeCount * capacityPerStripe : totalCapacity;
        _roundLimit = waitForBusyStripes ? int.MaxValue : ContendedRounds;
        _stripeMask = stripeCount - 1;
        _allStripes = stripeCount == 64 ? -1L : (1L << stripeCount) - 1;
        _slotStride = (capacityPerStripe + CacheLine.References - 1) & ~(CacheLine.References - 1);

        // One line of slack so the first region can start on a line boundary, one more so the last region's tail
        // never shares a line with whatever the allocator puts after the array.
        _slots = GC.AllocateArray<T?>((stripeCount * _slotStride) + (2 * CacheLine.References), pinned: true);
        _slotBase = ComputeAlignedBase(_slots);
        _headers = new StripeHeader[stripeCount + 2];
        int share = _totalCapacity / stripeCount;
        int remainder = _totalCapacity % stripeCount;
        for (int s = 0; s < stripeCount; s++)
        {
            int capacity = share + (s < remainder ? 1 : 0);
            Header(s).Capacity = capacity;
            if (capacity == 0)
            {
                // A stripe that can hold nothing is full from the start: pushes skip it through the mask.
                _masks.Full |= 1L << s;
            }
        }
    }

    /// <summary>The number of stripes (a power of two).</summary>
    public int StripeCount => _stripeMask + 1;

    /// <summary>Items the largest stripe holds.</summary>
    public int CapacityPerStripe => _capacity;

    /// <summary>Items all stripes hold together.</summary>
    public int Capacity => _totalCapacity;

    /// <summary>Items stripe <paramref name="stripe"/> holds (fixed at construction).</summary>
    public int CapacityOf(int stripe) => Header(stripe).Capacity;

    /// <summary>The pinned slot array (for layout tests).</summary>
    internal T?[] Slots => _slots;

    /// <summary>Index of stripe 0's first slot in <see cref="Slots"/> (for layout tests).</summary>
    internal int SlotBase => _slotBase;

    /// <summary>Distance in slots between two stripes' regions (for layout tests).</summary>
    internal int SlotStride => _slotStride;

    /// <summary>Bit s set: stripe s may hold items (clear: it holds none). A snapshot.</summary>
    // Volatile: a snapshot for readers outside any claim; the claim holders change it with Interlocked.Or/And.
    internal long HasItemsMask => Volatile.Read(ref _masks.HasItems);

    /// <summary>Bit s set: stripe s is full (clear: it may have room). A snapshot.</summary>
    // Volatile: a snapshot for readers outside any claim; the claim holders change it with Interlocked.Or/And.
    internal long FullMask => Volatile.Read(ref _masks.Full);

    /// <summary>The header of stripe <paramref name="stripe"/> (layout and claim tests).</summary>
    internal ref StripeHeader GetHeader(int stripe) => ref Header(stripe);

    /// <summary>The items on stripe <paramref name="stripe"/>, read without its claim.</summary>
    // Volatile: the count is written by whichever thread holds the claim; this reader wants the latest published value.
    public int CountOf(int stripe) => Volatile.Read(ref Header(stripe).Count);

    /// <summary>The items on all stripes, read without claims: exact only when no operation is in flight.</summary>
    public int CountItems()
    {
        int total = 0;
        for (int s = 0; s <= _stripeMask; s++)
        {
            total += CountOf(s);
        }

        return total;
    }

    /// <summary>Pops from <paramref name="home"/>, then from the nearest stripes that hold items; null when none do.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T? Pop(int home) => Pop(ref home);

    /// <summary>Pops from <paramref name="home"/>, then from the nearest stripes that hold items; null when none do.</summary>
    /// <remarks>A pop elsewhere makes that stripe the new <paramref name="home"/>, so a thread that empties its stripe does not walk past it on every later rent.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T? Pop(ref int home)
    {
        // A home stripe seen empty is not claimed at all: after a drain empties it, every further rent would otherwise
        // pay a compare-and-swap just to learn that. A stale count only sends this rent to the walk one time early.
        if (CountOf(home) != 0 && TryPop(home, out T? item) == StripeResult.Done)
        {
            return item;
        }

        return PopSlow(ref home);
    }

    /// <summary>As <see cref="Pop(ref int)"/>; with <paramref name="pair"/>, the claim on <paramref name="home"/> also takes the item below the top into
    /// <paramref name="second"/> when the stripe holds three or more and is not full (see <see cref="TryPopRun"/>).</summary>
    /// <remarks>The object pool's get: a drain claims once per two gets.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T? Pop(ref int home, bool pair, out T? second)
    {
        if (pair && CountOf(home) > 2 && TryPopRun(home, pair: true, default, out T? item, out second, out _) == StripeResult.Done)
        {
            return item;
        }

        second = null;
        return Pop(ref home);
    }

    /// <summary>As <see cref="Push(ref int, T, T)"/>, for a caller that keeps no home.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public StripeResult Push(int home, T item, T probe) => Push(ref home, item, probe);

    /// <summary>Pushes onto <paramref name="home"/>, then onto the nearest stripes with room; <see cref="StripeResult.Duplicate"/> when <paramref name="probe"/> is found on top.</summary>
    /// <remarks>A push elsewhere makes that stripe the new <paramref name="home"/>, so a thread that fills its stripe does not walk past it on every later return.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public StripeResult Push(ref int home, T item, T probe)
    {
        StripeResult result = CountOf(home) < Header(home).Capacity ? TryPush(home, item, probe) : PeekFullStripe(home, probe);
        if (result is StripeResult.Done or StripeResult.Duplicate)
        {
            return result;
        }

        return PushSlow(ref home, item, probe);
    }

    /// <summary>The object pool's pair push: <paramref name="below"/>, then <paramref name="top"/> (the returned item, so a double return is caught) onto <paramref name="home"/> under one claim.</summary>
    /// <remarks>False, with the stripe unchanged, otherwise: the caller then pushes one item through <see cref="Push(ref int, T, T)"/>, which handles every edge.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryPushPair(ref int home, T below, T top)
    {
        if (CountOf(home) + 2 > Header(home).Capacity)
        {
            return false;
        }

        return TryPushRun(home, below, top, default, top, out _) == StripeResult.Done;
    }

    /// <summary>Moves up to <paramref name="destination"/>.Length items, coldest first, off one stripe (home first) with one claim; 0 when the stripes hold none.</summary>
    public int PopBatch(int home, Span<T?> destination) => MoveBatch(home, destination, default, pop: true);

    /// <summary>Moves as many of <paramref name="items"/> (coldest first, so the last ends on top) as fit onto one stripe (home first) with one claim; returns how many.</summary>
    public int PushBatch(int home, ReadOnlySpan<T?> items) => MoveBatch(home, default, items, pop: false);

    /// <summary>The walk of <see cref="PopBatch"/> (<paramref name="pop"/>) and <see cref="PushBatch"/>: one claim moves the batch.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private int MoveBatch(int home, Span<T?> destination, ReadOnlySpan<T?> source, bool pop)
    {
        bool interrupted = false;
        try
        {
            for (int round = 0; round < _roundLimit; round++)
            {
                bool contended = false;

                // Volatile: bits flip under other stripes' claims; a stale bit only costs one wasted attempt.
                long candidates = pop ? Volatile.Read(ref _masks.HasItems) : ~Volatile.Read(ref _masks.Full) & _allStripes;
                for (int attempt = 0; candidates != 0 && attempt <= MaxStealAttempts;)
                {
                    int stripe = NearestStripe(candidates, home);
                    int moved;
                    StripeResult result = pop
                        ? TryPopRun(stripe, pair: false, destination, out _, out _, out moved)
                        : TryPushRun(stripe, null, null, source, probe: null, out moved);
                    if (result == StripeResult.Done)
                    {
                        return moved;
                    }

                    // A stale bit (the stripe was found empty or full, and its bit fixed) is no attempt.
                    attempt += result == StripeResult.Contended ? 1 : 0;
                    contended |= result == StripeResult.Contended;
                    candidates &= ~(1L << stripe);
                }

                if (!contended)
                {
                    return 0;
                }

                BackOff(round, ref interrupted);
            }

            return 0;
        }
        finally
        {
            HandBackInterrupt(interrupted);
        }
    }

    /// <summary>One attempt to pop the top item of stripe <paramref name="stripe"/>.</summary>
    public StripeResult TryPop(int stripe, out T? item)
    {
        return TryPopRun(stripe, pair: false, default, out item, out _, out _);
    }

    /// <summary>One attempt to push <paramref name="item"/> onto stripe <paramref name="stripe"/>.</summary>
    public StripeResult TryPush(int stripe, T item) => TryPush(stripe, item, item);

    /// <summary>One attempt to push <paramref name="item"/>; <see cref="StripeResult.Duplicate"/> if <paramref name="probe"/> is on top.</summary>
    public StripeResult TryPush(int stripe, T item, T probe) => TryPushRun(stripe, null, item, default, probe, out _);

    /// <summary>The one pop: under one claim, the top item of stripe <paramref name="stripe"/> into <paramref name="top"/>, and with <paramref name="pair"/> the one below it
    /// into <paramref name="second"/> when the stripe holds three or more and is not full; or, given a <paramref name="batch"/>, as many of the top items as it has
    /// room for (or as the stripe holds) into it instead, coldest first, so the top one is last.</summary>
    /// <remarks>
    /// <para>A pair never empties a stripe (other threads may be about to drain it) and never comes off a full one: on a small stripe, full at nearly every
    /// get, pairs would move most of the pool into single threads' slots, out of other threads' reach (a bound of 4 under eight threads then built objects
    /// hundreds of times as often).</para>
    /// <para>Inlined where it is called, so a single or pair pop keeps its items in registers. Keeps the occupancy bits on their edges: a stripe found empty loses its
    /// <c>HasItems</c> bit, one that was full loses its <c>Full</c> bit.</para>
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private StripeResult TryPopRun(int stripe, bool pair, Span<T?> batch, out T? top, out T? second, out int moved)
    {
        ref StripeHeader header = ref Header(stripe);
        top = null;
        second = null;
        if (!TryClaim(ref header))
        {
            moved = 0;
            return StripeResult.Contended;
        }

        int count = header.Count;
        moved = batch.Length != 0 ? Math.Min(count, batch.Length) : pair && count > 2 && count < header.Capacity ? 2 : Math.Min(count, 1);
        if (moved != 0)
        {
            int bottom = count - moved;
            ref T? run = ref Unsafe.Add(ref Region(stripe), bottom);
            if (batch.Length != 0)
            {
                Span<T?> items = MemoryMarshal.CreateSpan(ref run, moved);
                items.CopyTo(batch);
                items.Clear();
            }
            else
            {
                ref T? place = ref Unsafe.Add(ref run, moved - 1);
                top = place;
                place = null;
                if (moved == 2)
                {
                    second = run;
                    run = null;
                }
            }

            header.Count = bottom;
            header.Touched = 1;
            if (count == header.Capacity)
            {
                OccupancyMasks.Clear(ref _masks.Full, stripe);
            }
        }
        else
        {
            OccupancyMasks.Clear(ref _masks.HasItems, stripe);
        }

        Release(ref header);
        return moved != 0 ? StripeResult.Done : StripeResult.Empty;
    }

    /// <summary>The one push: under one claim, <paramref name="below"/> (if any) and then <paramref name="top"/> onto stripe <paramref name="stripe"/>, both or neither; or,
    /// given a <paramref name="batch"/> (coldest first, so the last ends on top), as many of its items as fit instead. <see cref="StripeResult.Duplicate"/>, stripe unchanged,
    /// when <paramref name="probe"/> is on top.</summary>
    /// <remarks>The probe is checked before the room: a full stripe with the item on top is a double return too, and dropping the second copy would let a disposing
    /// pool dispose the copy still in the stripe. Keeps the occupancy bits on their edges: a stripe that was empty gets its <c>HasItems</c> bit, one found full its <c>Full</c> bit.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private StripeResult TryPushRun(int stripe, T? below, T? top, ReadOnlySpan<T?> batch, T? probe, out int moved)
    {
        ref StripeHeader header = ref Header(stripe);
        moved = 0;
        if (!TryClaim(ref header))
        {
            return StripeResult.Contended;
        }

        StripeResult result;
        int count = header.Count;
        ref T? region = ref Region(stripe);
        int room = header.Capacity - count;
        int wanted = batch.Length != 0 ? batch.Length : below is null ? 1 : 2;
        if (probe is not null && count != 0 && ReferenceEquals(Unsafe.Add(ref region, count - 1), probe))
        {
            result = StripeResult.Duplicate;
        }
        else if (room >= wanted || (batch.Length != 0 && room != 0))
        {
            ref T? next = ref Unsafe.Add(ref region, count);
            if (batch.Length != 0)
            {
                moved = Math.Min(room, wanted);
                batch[..moved].CopyTo(MemoryMarshal.CreateSpan(ref next, moved));
            }
            else
            {
                moved = wanted;
                if (below is not null)
                {
                    next = below;
                    Unsafe.Add<T?>(ref next, 1) = top;
                }
                else
                {
                    next = top;
                }
            }

            header.Count = count + moved;
            header.Touched = 1;
            if (count == 0)
            {
                OccupancyMasks.Set(ref _masks.HasItems, stripe);
            }

            result = StripeResult.Done;
        }
        else
        {
            if (room == 0)
            {
                OccupancyMasks.Set(ref _masks.Full, stripe);
            }

            result = StripeResult.Full;
        }

        Release(ref header);
        return result;
    }

    /// <summary>Claims a stripe for one operation; false when another thread holds it, and the caller moves on or backs off (<see cref="BackOff"/>) instead of waiting.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryClaim(ref StripeHeader header) =>
        // Settles two threads operating on one stripe: the loser moves on (or backs off) instead of waiting.
        Interlocked.CompareExchange(ref header.Claim, 1, 0) == 0;

    /// <summary>Ends an operation begun with <see cref="TryClaim"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Release(ref StripeHeader header) =>
        // Release: publishes the slot and count stores made under the claim to the next thread that claims the stripe.
        Volatile.Write(ref header.Claim, 0);

    /// <summary>Whether <paramref name="probe"/> is on top of any stripe, read without claims: for a return that will not push (budget spent), so a second copy is never dropped while the first is kept.</summary>
    public bool IsOnTopOfAnyStripe(T probe)
    {
        for (int stripe = 0; stripe <= _stripeMask; stripe++)
        {
            if (IsOnTop(stripe, probe))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Whether <paramref name="probe"/> is on top of stripe <paramref name="stripe"/>, read without the claim, so a busy stripe neither delays the answer nor hides the top.</summary>
    /// <remarks>If a pop races the read, the top seen either still is in the pool (a true duplicate) or was just handed out, and then a return of it is no longer a
    /// duplicate of anything in the pool; an item pushed above it since is below the top, where no cheap check looks. A top slot read cleared under a count read
    /// before it (a pop, a take, or a trim sliding the stripe down, which keeps its top item on top) is read again under the claim.</remarks>
    public bool IsOnTop(int stripe, T probe)
    {
        int count = CountOf(stripe);
        if (count == 0)
        {
            return false;
        }

        // Volatile: read without the claim while a pop or push may run (see the remarks for what either race means).
        T? top = Volatile.Read(ref Unsafe.Add(ref Region(stripe), count - 1));
        return top is null ? IsOnTopUnderClaim(stripe, probe) : ReferenceEquals(top, probe);
    }

    /// <summary>As <see cref="IsOnTop"/>, under the claim: a top found cleared means a pop, a take or a trim's slide is moving it, and a slide keeps the same item on top.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool IsOnTopUnderClaim(int stripe, T probe)
    {
        ref StripeHeader header = ref Header(stripe);
        bool interrupted = false;
        try
        {
            for (int round = 0; !TryClaim(ref header); round++)
            {
                BackOff(round, ref interrupted);
            }

            int count = header.Count;
            bool onTop = count != 0 && ReferenceEquals(Unsafe.Add(ref Region(stripe), count - 1), probe);
            Release(ref header);
            return onTop;
        }
        finally
        {
            HandBackInterrupt(interrupted);
        }
    }

    /// <summary>The double-return check of a full stripe without claiming it: a return that finds its home full pays no compare-and-swap to learn that.</summary>
    private StripeResult PeekFullStripe(int stripe, T probe) => IsOnTop(stripe, probe) ? StripeResult.Duplicate : StripeResult.Full;

    /// <summary>Takes <paramref name="expected"/> off the top of stripe <paramref name="stripe"/> if it is there: <see cref="StripeResult.Done"/> (taken), <see cref="StripeResult.Empty"/>
    /// (not on top), or <see cref="StripeResult.Contended"/> (busy, unchanged); the caller discards and counts a taken item.</summary>
    /// <remarks>A trimmer's, for the item an idle thread last left on top (see <c>StripedPool.Trim</c>).</remarks>
    public StripeResult TryTakeTop(int stripe, T expected)
    {
        ref StripeHeader header = ref Header(stripe);
        if (!TryClaim(ref header))
        {
            return StripeResult.Contended;
        }

        int count = header.Count;
        bool taken = count != 0 && ReferenceEquals(Unsafe.Add(ref Region(stripe), count - 1), expected);
        if (taken)
        {
            Unsafe.Add(ref Region(stripe), count - 1) = null;
            header.Count = count - 1;
            if (count == header.Capacity)
            {
                OccupancyMasks.Clear(ref _masks.Full, stripe);
            }
        }

        Release(ref header);
        return taken ? StripeResult.Done : StripeResult.Empty;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T? PopSlow(ref int home) => Walk(ref home, null, null, out T? item) == StripeResult.Done ? item : null;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private StripeResult PushSlow(ref int home, T item, T probe) => Walk(ref home, item, probe, out _);

    /// <summary>The walk of <see cref="PopSlow"/> (no <paramref name="item"/>) and <see cref="PushSlow"/> over the stripes the masks offer, nearest first; the home stripe
    /// sits out the first round, since the fast path has just tried it.</summary>
    private StripeResult Walk(ref int home, T? item, T? probe, out T? popped)
    {
        bool pop = item is null;
        popped = null;
        bool interrupted = false;
        try
        {
            for (int round = 0; round < _roundLimit; round++)
            {
                bool contended = false;

                // Volatile: bits flip under other stripes' claims; a stale bit only costs one wasted attempt.
                long offered = pop ? Volatile.Read(ref _masks.HasItems) : ~Volatile.Read(ref _masks.Full) & _allStripes;
                long candidates = offered & (round == 0 ? ~(1L << home) : -1L);
                for (int attempt = 0; candidates != 0 && attempt < MaxStealAttempts;)
                {
                    int stripe = NearestStripe(candidates, home);
                    StripeResult result = pop ? TryPop(stripe, out popped) : TryPush(stripe, item!, probe!);
                    if (result is StripeResult.Done or StripeResult.Duplicate)
                    {
                        home = stripe;
                        return result;
                    }

                    // A stale bit (the stripe was found empty or full, and its bit fixed) is no attempt.
                    attempt += result == StripeResult.Contended ? 1 : 0;
                    contended |= result == StripeResult.Contended;
                    candidates &= ~(1L << stripe);
                }

                // Busy stripes (or a home that changed since the fast path) are worth a back-off: it costs far less than
                // allocating a new item or dropping one (a bounded number of rounds, unless this set waits for busy stripes).
                if (!contended && (round != 0 || (pop ? CountOf(home) == 0 : CountOf(home) >= Header(home).Capacity)))
                {
                    break;
                }

                BackOff(round, ref interrupted);
            }

            return pop ? StripeResult.Empty : StripeResult.Full;
        }
        finally
        {
            HandBackInterrupt(interrupted);
        }
    }

    /// <summary>Waits out a busy stripe: a spin (a running holder leaves in nanoseconds), then a yield (a preempted one needs a core); past <see cref="ContendedRounds"/> (sets that wait) sleeps of 0, then 1 ms.</summary>
    /// <remarks>The sleeps are the pool's waits, not the caller's: a <see cref="Thread.Interrupt"/> caught in one must not throw out of a rent or lose a returned item;
    /// the operation goes on yielding and <see cref="HandBackInterrupt"/> re-raises it when it ends.</remarks>
    private static void BackOff(int round, ref bool interrupted)
    {
        if (round < SpinningRounds)
        {
            Thread.SpinWait(4 << round);
        }
        else if (round < ContendedRounds || interrupted)
        {
            Thread.Yield();
        }
        else
        {
            try
            {
                Thread.Sleep(round < 4 * ContendedRounds ? 0 : 1);
            }
            catch (ThreadInterruptedException)
            {
                interrupted = true;
            }
        }
    }

    /// <summary>Re-raises on the current thread an interrupt that <see cref="BackOff"/> caught, once the operation is over.</summary>
    private static void HandBackInterrupt(bool interrupted)
    {
        if (interrupted)
        {
            Thread.CurrentThread.Interrupt();
        }
    }

    /// <summary>The first stripe at or after <paramref name="home"/> (wrapping) whose bit is set in <paramref name="candidates"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal int NearestStripe(long candidates, int home)
    {
        // The stripe count divides 64, so rotating the 64-bit word by home keeps every stripe's distance from home.
        int distance = BitOperations.TrailingZeroCount(BitOperations.RotateRight((ulong)candidates, home));
        return (home + distance) & _stripeMask;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref StripeHeader Header(int stripe) =>
        ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_headers), stripe + 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref T? Region(int stripe) =>
        ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_slots), _slotBase + (stripe * _slotStride));

    private static unsafe int ComputeAlignedBase(T?[] slots)
    {
        // The array is pinned, so its address is fixed for its lifetime and this is computed once.
        nuint address = (nuint)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(slots));
        nuint misalignment = address & (CacheLine.Size - 1);
        return misalignment == 0 ? 0 : (int)((CacheLine.Size - misalignment) / (nuint)IntPtr.Size);
    }
}
