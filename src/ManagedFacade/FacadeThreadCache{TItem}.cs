using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The inlined paths' way to a thread's cache of a size-class pool, written once for every facade that has one (the
/// array pools and the memory pools): one thread static for the facade's <c>Shared</c> pool, and a one-entry memo of
/// the last independent pool the thread used, checked against its owner.
/// </summary>
/// <remarks>
/// <para>
/// Per item type, so the statics of <c>StripedArrayPool&lt;byte&gt;</c> (whose items are <c>byte[]</c>) and of
/// <c>StripedMemoryPool&lt;byte&gt;</c> (whose items are pinned memory owners) never meet. Each item type belongs to one
/// facade type, and that facade has one <c>Shared</c>, so the shared slot never holds another pool's cache; that is what
/// lets <c>Shared</c> skip the owner check.
/// </para>
/// <para>
/// The memo's owner is a thread static of its own, written with the cache, rather than read from the cache: the owner
/// check and the cache's load then both hang off the thread-static base instead of one another. A memo whose pool has
/// died keeps that pool's small shared state (<see cref="PoolOwner"/>) and cache reachable until the thread uses
/// another independent pool of the same item type or ends; the cache's items are its own to lose to the trimmer.
/// </para>
/// </remarks>
/// <typeparam name="TItem">The pool's item type.</typeparam>
internal static class FacadeThreadCache<TItem>
    where TItem : class
{
#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    /// <summary>The facade's <c>Shared</c> pool's cache on this thread (null until the thread's first miss).</summary>
    [ThreadStatic]
    private static ThreadCache<TItem>? t_shared;

    /// <summary>The cache of the independent pool this thread used last; used only when <see cref="t_instanceOwner"/> matches.</summary>
    [ThreadStatic]
    private static ThreadCache<TItem>? t_instance;

    /// <summary>The owner of <see cref="t_instance"/> (always written with it).</summary>
    [ThreadStatic]
    private static PoolOwner? t_instanceOwner;
#pragma warning restore IDE1006

    /// <summary>The calling thread's cache of the pool whose owner is <paramref name="owner"/>, if the inlined paths may use it, else null.</summary>
    /// <param name="isShared">Whether the pool is its facade's <c>Shared</c> (a compare the JIT folds where it knows the receiver).</param>
    /// <param name="owner">The pool's shared state.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ThreadCache<TItem>? Current(bool isShared, PoolOwner owner)
    {
        // Read before the branch, whichever pool asks: both arms then hang off one thread-static base access, computed
        // inline, where an arm the JIT's profile thought cold would reach its thread static through a helper call.
        PoolOwner? instanceOwner = t_instanceOwner;
        if (isShared)
        {
            return t_shared;
        }

        return ReferenceEquals(instanceOwner, owner) ? t_instance : null;
    }

    /// <summary>Parks <paramref name="item"/> in <paramref name="cache"/>'s slot for a pool that can be disposed; false when the slot is taken (the caller then misses).</summary>
    /// <remarks>A disposal that began meanwhile may have drained the slot before the store, so the shutdown mark is read again after it and the engine drains once more.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryPark(ThreadCache<TItem> cache, int sizeClass, TItem item, StripedPool<TItem> engine)
    {
        if (!cache.TryPark(sizeClass, item))
        {
            return false;
        }

        if (engine.IsShutDown)
        {
            engine.ReturnRacedShutdown();
        }

        return true;
    }

    /// <summary>The one rent miss of every size-class facade: <see cref="StripedPool{T}.RentMiss"/> with the <paramref name="cache"/> the inlined path read (<paramref name="slotProbed"/>:
    /// its take looked in the slot), then, when it had none, the thread's cache published to <see cref="Current"/>.</summary>
    public static TItem RentMiss(StripedPool<TItem> engine, int sizeClass, ThreadCache<TItem>? cache, bool slotProbed, bool isShared)
    {
        bool publish = cache is null;
        TItem item = engine.RentMiss(sizeClass, ref cache, slotProbed);
        if (publish)
        {
            Publish(cache!, isShared);
        }

        return item;
    }

    /// <summary>The one return miss of every size-class facade, as <see cref="RentMiss"/>.</summary>
    /// <returns>What the engine did with the item.</returns>
    public static ReturnResult ReturnMiss(StripedPool<TItem> engine, int sizeClass, TItem item, ThreadCache<TItem>? cache, bool isShared)
    {
        bool publish = cache is null;
        ReturnResult result = engine.ReturnMiss(sizeClass, item, ref cache);
        if (publish)
        {
            Publish(cache!, isShared);
        }

        return result;
    }

    /// <summary>Makes <paramref name="cache"/>, the calling thread's own, reachable from the inlined paths once it may park items.</summary>
    private static void Publish(ThreadCache<TItem> cache, bool isShared)
    {
        if (!cache.SlotsEnabled)
        {
            return;
        }

        if (isShared)
        {
            t_shared = cache;
        }
        else
        {
            t_instanceOwner = cache.Owner;
            t_instance = cache;
        }
    }
}
