using System;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The way the size-class facades' inlined paths reach the calling thread's cache of a pool: a few thread statics per
/// item type, read without a table look-up. A facade that misses here finds the cache in the engine's table, out of
/// line, and publishes it. The object pool, whose code is shared between reference item types, uses the engine's
/// non-generic memo of the same shape instead (<see cref="ThreadCacheTable.Recent"/>).
/// </summary>
/// <remarks>
/// <para>
/// The thread statics are per item type, so those of <c>StripedArrayPool&lt;byte&gt;</c> (whose items are <c>byte[]</c>)
/// and of <c>StripedMemoryPool&lt;byte&gt;</c> (pinned memory owners) never meet. A size-class facade's <c>Shared</c> pool
/// has an entry of its own: each item type belongs to one size-class facade with one <c>Shared</c>, so that entry never
/// holds another pool's cache, which is what lets <c>Shared</c> skip the owner check. Every other pool (a
/// <c>Create()</c> pool) is remembered in two entries, the last published and the one before, so a
/// thread that alternates two pools of one item type finds both inline instead of publishing on every switch. Each
/// entry keeps its owner in a thread static of its own, written with the cache, so the owner check and the cache's load
/// both hang off the thread-static base instead of one another: two dependent loads from the base to a checked cache,
/// where the engine's table takes four (the table, its entry, the entry's owner, the compare).
/// </para>
/// <para>
/// An entry whose pool has died keeps that pool's <see cref="PoolOwner"/> and cache reachable until the thread
/// publishes two other independent pools of the same item type or ends; the cache's items are its own to lose to the
/// trimmer. A disposed or observed pool closes its own inlined paths, so an entry is never used after that.
/// </para>
/// </remarks>
/// <typeparam name="TItem">The pools' item type.</typeparam>
internal static class ThreadCacheMemo<TItem>
    where TItem : class
{
#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    /// <summary>The size-class facade's <c>Shared</c> pool's cache on this thread (null until the thread's first miss).</summary>
    [ThreadStatic]
    private static ThreadCache<TItem>? t_shared;

    /// <summary>The cache of the independent pool this thread published last; used only when <see cref="t_instanceOwner"/> matches.</summary>
    [ThreadStatic]
    private static ThreadCache<TItem>? t_instance;

    /// <summary>The owner of <see cref="t_instance"/> (always written with it).</summary>
    [ThreadStatic]
    private static PoolOwner? t_instanceOwner;

    /// <summary>The cache <see cref="t_instance"/> held before, so a thread that alternates two independent pools finds both; used only when <see cref="t_previousOwner"/> matches.</summary>
    [ThreadStatic]
    private static ThreadCache<TItem>? t_previous;

    /// <summary>The owner of <see cref="t_previous"/> (always written with it).</summary>
    [ThreadStatic]
    private static PoolOwner? t_previousOwner;
#pragma warning restore IDE1006

    /// <summary>The calling thread's cache of the pool <paramref name="owner"/> owns, or null when this thread has not published it (the caller then misses).</summary>
    /// <param name="isShared">Whether the pool is its size-class facade's <c>Shared</c> (a compare the JIT folds where it knows the receiver).</param>
    /// <param name="owner">The pool's owner.</param>
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

        if (ReferenceEquals(instanceOwner, owner))
        {
            return t_instance;
        }

        return ReferenceEquals(t_previousOwner, owner) ? t_previous : null;
    }

    /// <summary>Makes <paramref name="cache"/>, the calling thread's own, reachable from the inlined paths once it may park items (before that, every call misses).</summary>
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
            t_previousOwner = t_instanceOwner;
            t_previous = t_instance;
            t_instanceOwner = cache.Owner;
            t_instance = cache;
        }
    }
}
