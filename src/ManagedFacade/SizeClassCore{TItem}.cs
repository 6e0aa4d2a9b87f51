using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The one core of the size-class facades (the array, memory and native pools), held as a field: the engine, the
/// inlined paths' limits and their way to the thread's cache, the slot's take and park, the misses that publish the
/// thread's cache, and disposal with the shutdown re-checks of the engine's protocol (<see cref="StripedPool{T}.Shutdown()"/>).
/// </summary>
/// <remarks>
/// <para>
/// A mutable struct in a facade's non-readonly field, reached only by reference: its fields are the facade's own, so the
/// inlined paths load them off the facade exactly as fields declared there. The limits are the largest pooled size and
/// the class count while the inlined paths are open, and 0 while they are closed (the pool is disposed or observed; the
/// return's also while the pool clears on return), so each fast path needs one comparison. A disposable facade re-reads
/// the shutdown mark after every rent and store: a Dispose that began while it took an item may have taken it from the
/// slot too, and one that began while it stored may have drained before the store.
/// </para>
/// <para>
/// The inlined paths reach the thread's cache through <see cref="ThreadCacheMemo{TItem}"/>; a miss publishes it there.
/// </para>
/// </remarks>
/// <typeparam name="TItem">The pool's item type.</typeparam>
internal struct SizeClassCore<TItem>
    where TItem : class
{
    private readonly StripedPool<TItem> _engine;
    private readonly PoolOwner _owner;
    private readonly bool _isShared;
    private int _rentLimit;
    private int _returnClasses;

    /// <summary>Holds <paramref name="engine"/>, with the inlined paths open to the given limits.</summary>
    public SizeClassCore(StripedPool<TItem> engine, bool isShared, int rentLimit, int returnClasses)
    {
        _engine = engine;
        _owner = engine.Owner;
        _isShared = isShared;
        _rentLimit = rentLimit;
        _returnClasses = returnClasses;
    }

    /// <summary>The engine.</summary>
    public readonly StripedPool<TItem> Engine => _engine;

    /// <summary>Whether the facade is its type's <c>Shared</c> pool (never disposed).</summary>
    public readonly bool IsShared => _isShared;

    /// <summary>The inlined rent's limit: the largest size it serves, 0 while closed.</summary>
    public readonly int RentLimit => _rentLimit;

    /// <summary>Whether a Dispose has begun.</summary>
    public readonly bool IsShutDown => _engine.IsShutDown;

    /// <summary>Throws <see cref="ObjectDisposedException"/> naming <paramref name="poolName"/> once a Dispose has begun.</summary>
    public readonly void ThrowIfDisposed(string poolName)
    {
        if (_engine.IsShutDown)
        {
            ThrowHelper.ThrowObjectDisposed(poolName);
        }
    }

    /// <summary>Whether the inlined return may park an item of <paramref name="sizeClass"/> (a class of this pool, or negative for an unpooled item).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool ParksClass(int sizeClass) => (uint)sizeClass < (uint)_returnClasses;

    /// <summary>The calling thread's cache of this pool if the inlined paths may use it, else null (they then miss).</summary>
    /// <param name="isShared">Whether the pool is its facade's <c>Shared</c> (a compare the JIT folds where it knows the receiver).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly ThreadCache<TItem>? Current(bool isShared) => ThreadCacheMemo<TItem>.Current(isShared, _owner);

    /// <summary>The inlined take: the slot's item of the class serving <paramref name="size"/> (the smallest class holds <c>1 &lt;&lt; minimumShift</c>) when there is a cache and the rent limit admits the size, else null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly TItem? TryTake(ThreadCache<TItem>? cache, int size, int minimumShift) =>
        cache is not null && (uint)(size - 1) < (uint)_rentLimit ? cache.TryTake(SizeClasses.GetIndex(size, minimumShift)) : null;

    /// <summary>The inlined park of a disposable pool, with its shutdown re-check; false when the slot is taken (the caller then misses).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly bool TryPark(ThreadCache<TItem> cache, int sizeClass, TItem item)
    {
        if (!cache.TryPark(sizeClass, item))
        {
            return false;
        }

        if (_engine.IsShutDown)
        {
            _engine.ReturnRacedShutdown();
        }

        return true;
    }

    /// <summary>The shutdown re-check of a rent of a disposable pool that has taken the pooled <paramref name="item"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public readonly void ThrowIfRentRaced(TItem item, string poolName)
    {
        if (_engine.IsShutDown)
        {
            RentRacedDispose(item, poolName);
        }
    }

    /// <summary>The rent re-check fired: the item goes to nobody (let go and counted once, here or by the drain that also took it), then the rent throws.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public readonly void RentRacedDispose(TItem item, string poolName)
    {
        _engine.RentRacedShutdown(item);
        ThrowHelper.ThrowObjectDisposed(poolName);
    }

    /// <summary>The one rent miss of every size-class facade, for a size within the classes: <see cref="StripedPool{T}.RentMiss"/> with the <paramref name="cache"/> the inlined path read, then, when it had none, the thread's cache published.</summary>
    public readonly TItem RentMiss(int size, int minimumShift, ThreadCache<TItem>? cache, bool isShared)
    {
        // The inlined take looked in the slot when it had the cache and the limit was open.
        bool slotProbed = cache is not null && (uint)(size - 1) < (uint)_rentLimit;
        bool publish = cache is null;
        TItem item = _engine.RentMiss(SizeClasses.GetIndex(size, minimumShift), ref cache, slotProbed);
        if (publish)
        {
            ThreadCacheMemo<TItem>.Publish(cache!, isShared);
        }

        return item;
    }

    /// <summary>The one return miss of every size-class facade, as <see cref="RentMiss"/>, with the shutdown re-check after the store.</summary>
    /// <returns>What the engine did with the item.</returns>
    public readonly ReturnResult ReturnMiss(int sizeClass, TItem item, ThreadCache<TItem>? cache, bool isShared)
    {
        bool publish = cache is null;
        ReturnResult result = _engine.ReturnMiss(sizeClass, item, ref cache);
        if (publish)
        {
            ThreadCacheMemo<TItem>.Publish(cache!, isShared);
        }

        if (_engine.IsShutDown)
        {
            _engine.ReturnRacedShutdown();
        }

        return result;
    }

    /// <summary>Opens or closes the inlined paths: where a limit is 0, later rents or returns on every thread take the slow paths.</summary>
    public void SetLimits(int rentLimit, int returnClasses)
    {
        // Volatile: publishes the limit to the inlined paths on other threads; a rent racing it costs one operation's
        // events (observation) or is settled by the shutdown re-check (disposal).
        Volatile.Write(ref _rentLimit, rentLimit);

        // Volatile: as above, for returns.
        Volatile.Write(ref _returnClasses, returnClasses);
    }

    /// <summary>The one <c>Dispose</c> of the disposable size-class facades: closes the inlined paths and the registration, then shuts the engine down; does nothing for a shared pool.</summary>
    /// <remarks>The closing runs on every call, so a second <c>Dispose</c> that returns while the first still drains also finds the pool closed.</remarks>
    public void Dispose()
    {
        if (_isShared)
        {
            return;
        }

        SetLimits(0, 0);
        PoolRegistry.Unregister(_engine);
        _engine.Shutdown();
    }
}
