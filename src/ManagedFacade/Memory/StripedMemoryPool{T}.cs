using System;
using System.Buffers;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// A drop-in <see cref="MemoryPool{T}"/> on the NativePool engine whose buffers live on the pinned object heap and whose
/// buffer managers are pooled, so <c>Memory.Pin()</c> needs no GCHandle and <see cref="RentLease(int)"/> allocates nothing. Use
/// <see cref="Shared"/> where you used <see cref="MemoryPool{T}.Shared"/>, e.g. for <c>PipeOptions.Pool</c>.
/// </summary>
/// <remarks>
/// <para>
/// Contract. <c>Rent(n)</c> for 0 ≤ n ≤ <see cref="MaxBufferSize"/> returns an owner whose <c>Memory</c> is exactly
/// <c>n</c> elements long (contents undefined); <c>Rent()</c> and <c>Rent(-1)</c> rent <see cref="DefaultBufferLength"/>
/// elements; any other length throws <see cref="ArgumentOutOfRangeException"/>. After <c>Dispose</c> the owner's
/// <c>Memory</c> throws <see cref="ObjectDisposedException"/>; further disposes are ignored, also when two threads race.
/// </para>
/// <para>
/// Owners. Each buffer belongs for life to a pooled <see cref="MemoryManager{T}"/> bound to one pinned array of its size
/// class (a power of two from 16 elements). A reused object cannot tell a reference kept after <c>Dispose</c> from its
/// next renter's, so a late second <c>Dispose</c> of a pooled owner would end the next renter's lease. Hence
/// <see cref="Rent(int)"/> returns a small owner made for that rent (24 bytes, as <see cref="MemoryPool{T}.Shared"/>
/// allocates per rent) whose first <c>Dispose</c> takes the pooled manager out with one exchange; after it,
/// <c>Memory</c> throws and <c>Dispose</c> does nothing. For no allocation at all, use <see cref="RentLease(int)"/> (a
/// struct lease carrying the generation, equally stale-safe), or <see cref="StripedMemoryPoolOptions.ReuseOwners"/>
/// where every owner is disposed exactly once.
/// </para>
/// <para>
/// Concurrency and disposal: the engine's, as in <see cref="StripedArrayPool{T}"/>; ending a lease costs one
/// uncontended atomic instruction, which makes racing disposes safe. <see cref="MemoryPool{T}.Dispose()"/> is the
/// engine's shutdown (<see cref="StripedPool{T}.Shutdown"/>): a rent racing it throws
/// <see cref="ObjectDisposedException"/>, a return racing it drains again, and the statistics stay exact.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type (unmanaged, so buffers can be pinned).</typeparam>
public sealed class StripedMemoryPool<T> : MemoryPool<T>
    where T : unmanaged
{
    // Null when a process setting is malformed: Shared then throws the setting's exception (see SharedPool).
    private static readonly Func<StripedMemoryPool<T>> s_createShared = static () => new StripedMemoryPool<T>(new StripedMemoryPoolOptions(), isShared: true);
    private static readonly StripedMemoryPool<T>? s_shared = SharedPool.TryCreate(s_createShared);

    private readonly int _maxBufferSize;
    private readonly int _defaultLength;
    private readonly int _classCount;
    private readonly bool _clearOnReturn;
    private readonly bool _reuseOwners;
    private SizeClassCore<PinnedMemoryOwner<T>> _core;

    private unsafe StripedMemoryPool(StripedMemoryPoolOptions options, bool isShared)
    {
        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();

        _classCount = SizeClasses.GetIndex(options.MaximumBufferLength) + 1;
        _maxBufferSize = SizeClasses.GetLength(_classCount - 1);
        _defaultLength = options.DefaultBufferLength != 0
            ? options.DefaultBufferLength
            : Math.Min(_maxBufferSize, (4096 + sizeof(T) - 1) / sizeof(T));
        _clearOnReturn = options.ClearOnReturn;
        _reuseOwners = options.ReuseOwners;

        StripedPoolSettings settings = options.ToSettings(
            _classCount,
            static c => (long)SizeClasses.GetLength(c) * sizeof(T),
            kind: "memory",
            name: options.Name ?? $"StripedMemoryPool<{typeof(T).Name}>{(isShared ? ".Shared" : "")}");
        _core = new SizeClassCore<PinnedMemoryOwner<T>>(
            new StripedPool<PinnedMemoryOwner<T>>(settings, Allocate), isShared, _maxBufferSize, _clearOnReturn ? 0 : _classCount);
        PoolRegistry.Register(_core.Engine);
    }

    /// <summary>The process-wide pool. Its <c>Dispose</c> does nothing (as with <see cref="MemoryPool{T}.Shared"/>).</summary>
    /// <exception cref="InvalidOperationException">A process setting the shared pool reads (the retained-bytes limit, and for arrays the double-return policy) holds a malformed value; the message names it.</exception>
    public static new StripedMemoryPool<T> Shared => SharedPool.OrThrow(s_shared, s_createShared);

    /// <summary>The largest buffer this pool hands out: the length of its largest size class.</summary>
    public override int MaxBufferSize => _maxBufferSize;

    /// <summary>The length <c>Rent()</c> and <c>Rent(-1)</c> give: by default 4 KiB worth of elements.</summary>
    public int DefaultBufferLength => _defaultLength;

    /// <summary>The number of per-core stripes of each size class.</summary>
    public int StripeCount => _core.Engine.StripeCount;

    /// <summary>The engine (tests and benchmarks).</summary>
    internal StripedPool<PinnedMemoryOwner<T>> Engine => _core.Engine;

    /// <summary>Whether this is <see cref="Shared"/> (its owners hold it for life).</summary>
    internal bool IsShared => _core.IsShared;

    /// <summary>Whether <c>Rent</c> hands out the pooled owner itself (<see cref="StripedMemoryPoolOptions.ReuseOwners"/>).</summary>
    internal bool ReusesOwners => _reuseOwners;

    /// <summary>Creates an independent pool with the default options.</summary>
    /// <returns>A new pool; dispose it when done.</returns>
    public static StripedMemoryPool<T> Create() => new(new StripedMemoryPoolOptions(), isShared: false);

    /// <summary>Creates an independent pool.</summary>
    /// <param name="options">The shape of the pool; copied and validated now.</param>
    /// <returns>A new pool; dispose it when done.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static StripedMemoryPool<T> Create(StripedMemoryPoolOptions options) => new(options, isShared: false);

    /// <summary>Rents a pinned buffer whose <c>Memory</c> is exactly <paramref name="minBufferSize"/> elements long.</summary>
    /// <param name="minBufferSize">The length, 0 to <see cref="MaxBufferSize"/>; -1 for <see cref="DefaultBufferLength"/>.</param>
    /// <returns>The owner of this rent, which returns the buffer when disposed: a new small object per rent (see the remarks on the class), or the pooled owner itself when the pool reuses owners.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="minBufferSize"/> is below -1 or above <see cref="MaxBufferSize"/>.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public override IMemoryOwner<T> Rent(int minBufferSize = -1)
    {
        PinnedMemoryOwner<T> owner = RentOwner(minBufferSize);
        return _reuseOwners ? owner : new RentedMemoryOwner<T>(owner);
    }

    /// <summary>Rents a pinned buffer under a lease, which may be stored or kept across an <see langword="await"/>; the struct lease allocates nothing and disposing it returns the buffer once.</summary>
    /// <param name="length">The length, 0 to <see cref="MaxBufferSize"/>; -1 for <see cref="DefaultBufferLength"/>.</param>
    /// <returns>A lease whose <see cref="MemoryLease{T}.Memory"/> is exactly <paramref name="length"/> long (<see cref="DefaultBufferLength"/> for -1).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is below -1 or above <see cref="MaxBufferSize"/>.</exception>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public MemoryLease<T> RentLease(int length)
    {
        PinnedMemoryOwner<T> owner = RentOwner(length);
        return new MemoryLease<T>(owner, owner.Generation, owner.Length);
    }

    /// <summary>The rent of every path: the thread's slot inline, everything else out of line.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private PinnedMemoryOwner<T> RentOwner(int minBufferSize)
    {
        ThreadCache<PinnedMemoryOwner<T>>? cache = CurrentCache();
        PinnedMemoryOwner<T>? owner = _core.TryTake(cache, minBufferSize, SizeClasses.MinimumShift);
        return owner is not null ? Leased(owner, minBufferSize) : RentOwnerMiss(minBufferSize, cache);
    }

    /// <summary>The end of every rent: the shutdown re-check, then the lease of <paramref name="length"/> elements.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private PinnedMemoryOwner<T> Leased(PinnedMemoryOwner<T> owner, int length)
    {
        _core.ThrowIfRentRaced(owner, nameof(StripedMemoryPool<T>));
        owner.Lease(this, length);
        return owner;
    }

    /// <summary>Every rent the inlined path does not serve, with the cache it read (see <see cref="SizeClassCore{TItem}.RentMiss"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private PinnedMemoryOwner<T> RentOwnerMiss(int minBufferSize, ThreadCache<PinnedMemoryOwner<T>>? cache)
    {
        if ((uint)(minBufferSize - 1) >= (uint)_core.RentLimit)
        {
            return RentUncommon(minBufferSize);
        }

        return Leased(_core.RentMiss(minBufferSize, SizeClasses.MinimumShift, cache, ReferenceEquals(this, s_shared)), minBufferSize);
    }

    /// <summary>This pool's cache on the calling thread if the inlined paths may use it, else null (they then miss).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ThreadCache<PinnedMemoryOwner<T>>? CurrentCache() => _core.Current(ReferenceEquals(this, s_shared));

    /// <summary>Releases idle buffers now, as the periodic trim would (everything under high memory pressure).</summary>
    /// <returns>How many buffers were released.</returns>
    public int Trim() => _core.Engine.Trim();

    /// <summary>Releases every pooled buffer now, whatever its age.</summary>
    /// <returns>How many buffers were released.</returns>
    public int Clear() => _core.Engine.Trim(releaseAll: true);

    /// <summary>Reads the pool's counters (summed over threads and stripes; exact when the pool is quiet).</summary>
    /// <returns>A snapshot: items are buffers, bytes are element bytes.</returns>
    public PoolStatistics GetStatistics() => PoolStatistics.From(_core.Engine.ReadCounts());

    /// <summary>Takes an owner back (called once per lease by the owner): the thread's empty slot inline, else out of line.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Return(PinnedMemoryOwner<T> owner)
    {
        ThreadCache<PinnedMemoryOwner<T>>? cache = CurrentCache();
        // Through the owner's class, always one of this pool's (the owner was made for it).
        if (cache is not null && _core.ParksClass(owner.SizeClass) && _core.TryPark(cache, owner.SizeClass, owner))
        {
            return;
        }

        ReturnMiss(owner, cache);
    }

    /// <summary>Every return the inlined path does not take: a taken slot, a clearing pool, a disposed one.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnMiss(PinnedMemoryOwner<T> owner, ThreadCache<PinnedMemoryOwner<T>>? cache)
    {
        if (_clearOnReturn)
        {
            owner.Clear();
        }

        if (_core.RentLimit != 0)
        {
            // Cannot be a duplicate: exactly one dispose per lease gets here (the handle's exchange, or the generation).
            _core.ReturnMiss(owner.SizeClass, owner, cache, ReferenceEquals(this, s_shared));
            return;
        }

        // The pool is disposed: keep nothing; count the return as dropped so the statistics still balance.
        _core.Engine.RecordUnpooledReturn();
    }

    /// <summary>Disposes an instance made by <c>Create</c>: pooled buffers are released, later rents throw <see cref="ObjectDisposedException"/>, owners still out are dropped when disposed. Does nothing for <see cref="Shared"/>.</summary>
    /// <param name="disposing">True from <see cref="IDisposable.Dispose"/>.</param>
    protected override void Dispose(bool disposing) => _core.Dispose();

    private PinnedMemoryOwner<T> Allocate(int sizeClass) => new(this, sizeClass, SizeClasses.GetLength(sizeClass));

    [MethodImpl(MethodImplOptions.NoInlining)]
    private PinnedMemoryOwner<T> RentUncommon(int minBufferSize)
    {
        _core.ThrowIfDisposed(nameof(StripedMemoryPool<T>));

        if (minBufferSize == -1)
        {
            minBufferSize = _defaultLength;
        }
        else if ((uint)minBufferSize > (uint)_maxBufferSize)
        {
            ThrowHelper.ThrowArgumentOutOfRange(
                nameof(minBufferSize),
                $"The buffer length must be from 0 to MaxBufferSize ({_maxBufferSize}), or -1 for the default length.");
        }

        // Length 0 shares the smallest class; its Memory is empty.
        return Leased(_core.Engine.Rent(SizeClasses.GetIndex(Math.Max(1, minBufferSize))), minBufferSize);
    }
}
