using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The inlined paths' way to a thread's cache of a size-class pool, written once for every facade that has one (the
/// array, memory and native pools, through <see cref="SizeClassCore{TItem}"/>): one thread static for the facade's <c>Shared</c> pool, and a one-entry memo of
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

    /// <summary>Makes <paramref name="cache"/>, the calling thread's own, reachable from the inlined paths once it may park items.</summary>
    public static void Publish(ThreadCache<TItem> cache, bool isShared)
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
