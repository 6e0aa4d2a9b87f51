using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>The shared machinery of <see cref="NativeBlockPool"/> and <see cref="NativeStructPool{T}"/>: the engine over block headers, the byte classes, the budget, the counters and disposal.</summary>
/// <remarks>
/// <para>
/// The engine's discard callback frees the native memory, so a block dropped past the budget, trimmed (from another live
/// thread's slot only by the engine's reclaim protocol) or let go by disposal (<see cref="StripedPool{T}.Shutdown"/>) is
/// freed there, exactly once; nothing a racing thread does can make the pool free a leased block.
/// </para>
/// <para>
/// The thread's slot is inline, reached through <see cref="SizeClassCore{TItem}"/>'s owner-checked memo (checked for
/// the shared pools too: <c>NativeBlockPool.Shared</c> and <c>NativeStructPool&lt;byte&gt;.Shared</c> hold the same
/// block type, and a block must never be parked in the other pool's slot). A rent on the slot enters the cache's
/// operation mark, as the engine's own rent does; a return that fills an empty slot needs none.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type of the blocks' typed views.</typeparam>
internal sealed class NativeBlockCore<T>
    where T : unmanaged
{
    private readonly NativeBlockCounters _counters = new();
    private readonly nuint _alignment;
    private readonly int _maximumBlockSize;
    private SizeClassCore<NativeBlock<T>> _core;

    /// <summary>Creates the core from options validated here; <paramref name="typeName"/> is the default pool name (<paramref name="isShared"/> appends <c>.Shared</c>).</summary>
    public NativeBlockCore(NativeBlockPoolOptions options, bool isShared, string typeName)
    {
        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();

        _alignment = (nuint)options.Alignment;
        int classCount = NativeSizeClasses.GetIndex(options.MaximumBlockSize) + 1;
        _maximumBlockSize = NativeSizeClasses.GetSize(classCount - 1);

        StripedPoolSettings settings = options.ToSettings(
            classCount,
            static c => NativeSizeClasses.GetSize(c),
            kind: "native",
            name: options.Name ?? (isShared ? typeName + ".Shared" : typeName),
            sideEffectingDiscard: true,
            threadSlotTokens: options.MaximumCachingThreads);
        _core = new SizeClassCore<NativeBlock<T>>(
            new StripedPool<NativeBlock<T>>(settings, Allocate, static block => block.Free()), isShared, _maximumBlockSize, classCount);
        PoolRegistry.Register(_core.Engine);
    }

    /// <summary>The alignment of every block, in bytes.</summary>
    public int Alignment => (int)_alignment;

    /// <summary>The largest pooled block, in bytes.</summary>
    public int MaximumBlockSize => _maximumBlockSize;

    /// <summary>The number of per-core stripes of each size class.</summary>
    public int StripeCount => _core.Engine.StripeCount;

    /// <summary>The engine (tests).</summary>
    internal StripedPool<NativeBlock<T>> Engine => _core.Engine;

    /// <summary>The native counters (tests).</summary>
    internal NativeBlockCounters Counters => _counters;

    /// <summary>Rents a block of at least <paramref name="byteLength"/> bytes (checked by the caller) and leases it as <paramref name="length"/> elements under <paramref name="generation"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public NativeBlock<T> Rent(int byteLength, int length, out long generation)
    {
        ThreadCache<NativeBlock<T>>? cache = CurrentCache();
        NativeBlock<T> block = _core.TryTake(cache, byteLength, NativeSizeClasses.MinimumShift) ?? RentMiss(byteLength, cache);
        if (_core.IsShutDown)
        {
            RentRacedDispose(block);
        }

        generation = block.Lease(length);
        return block;
    }

    /// <summary>Ends lease <paramref name="generation"/> of <paramref name="block"/> and takes the block back; later calls do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Return(NativeBlock<T> block, long generation)
    {
        if (!block.TryEndLease(generation))
        {
            return;
        }

        if (_core.ParksClass(block.SizeClass))
        {
            // Cannot be a duplicate: the generation lets exactly one dispose per lease through.
            ThreadCache<NativeBlock<T>>? cache = CurrentCache();
            if (cache is null || !_core.TryPark(cache, block.SizeClass, block))
            {
                ReturnMiss(block, cache);
            }

            return;
        }

        ReturnUncommon(block);
    }

    /// <summary>Frees idle blocks now, as the periodic trim would.</summary>
    public int Trim() => _core.Engine.Trim();

    /// <summary>Frees every block on the stripes and in the calling thread's slots now.</summary>
    public int Clear() => _core.Engine.Trim(releaseAll: true);

    /// <summary>Reads the counters: the engine's and the allocator's in one snapshot, so a block a trim pass frees is in both either pooled or gone.</summary>
    public NativeBlockStatistics GetStatistics()
    {
        NativeBlockCounters counters = _counters;
        (PoolCounts blocks, (long Allocated, long Freed, long LiveBytes) native) = _core.Engine.ReadCounts(
            () => (counters.AllocatedBlocks, counters.FreedBlocks, counters.AllocatedBytes - counters.FreedBytes));
        return new NativeBlockStatistics
        {
            Blocks = PoolStatistics.From(blocks),
            BlocksAllocated = native.Allocated,
            BlocksFreed = native.Freed,
            LiveBytes = native.LiveBytes,
        };
    }

    /// <summary>Frees the pooled blocks and makes later rents throw; does nothing for a shared pool or a second time.</summary>
    public void Dispose() => _core.Dispose();

    /// <summary>This pool's cache on the calling thread if the inlined paths may use it, else null (they then miss).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ThreadCache<NativeBlock<T>>? CurrentCache() => _core.Current(isShared: false);

    /// <summary>Every rent the inlined slot does not serve, with the cache it read (see <see cref="SizeClassCore{TItem}.RentMiss"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private NativeBlock<T> RentMiss(int byteLength, ThreadCache<NativeBlock<T>>? cache) =>
        (uint)(byteLength - 1) < (uint)_core.RentLimit
            ? _core.RentMiss(byteLength, NativeSizeClasses.MinimumShift, cache, isShared: false)
            : RentUncommon(byteLength);

    /// <summary>A pooled block's return the inlined slot does not take (dropped means freed: past the budget, or the stripes full).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnMiss(NativeBlock<T> block, ThreadCache<NativeBlock<T>>? cache) =>
        _core.ReturnMiss(block.SizeClass, block, cache, isShared: false);

    /// <summary>The rent's shutdown re-check fired: a pooled block goes as <see cref="SizeClassCore{TItem}.RentRacedDispose"/> says, an oversize one the engine never held is freed here.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RentRacedDispose(NativeBlock<T> block)
    {
        if (block.SizeClass < 0)
        {
            block.Free();
            ThrowHelper.ThrowObjectDisposed(nameof(NativeBlockPool));
        }

        _core.RentRacedDispose(block, nameof(NativeBlockPool));
    }

    private NativeBlock<T> Allocate(int sizeClass) =>
        NativeBlock<T>.Allocate(NativeSizeClasses.GetSize(sizeClass), _alignment, sizeClass, _counters);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private NativeBlock<T> RentUncommon(int byteLength)
    {
        _core.ThrowIfDisposed(nameof(NativeBlockPool));

        if (byteLength == 0)
        {
            // An empty lease still gets a real (smallest) block, so its pointer is valid and aligned.
            return _core.Engine.Rent(0);
        }

        // Larger than the largest class: allocated at its exact size (whole alignment units), freed on return.
        nuint size = ((nuint)(uint)byteLength + _alignment - 1) & ~(_alignment - 1);
        if (size > int.MaxValue)
        {
            size = (nuint)byteLength;
        }

        _core.Engine.RecordUnpooledRent();
        return NativeBlock<T>.Allocate((int)size, _alignment, -1, _counters);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnUncommon(NativeBlock<T> block)
    {
        // Oversize, or the pool is disposed: keep nothing, and balance the statistics as an unpooled return.
        block.Free();
        _core.Engine.RecordUnpooledReturn();
    }
}
