using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>One thread's table of pool caches, indexed by pool id: the thread-local tier of every pool instance.</summary>
/// <remarks>
/// One <c>[ThreadStatic]</c> array serves shared and created pools alike. Ids are recycled, lowest free first, so a
/// table is as long as the most pools alive at once; an entry may therefore hold a dead pool's cache, which a pool uses
/// only when it names it as owner (<see cref="ThreadCacheBase.Owner"/>) and otherwise replaces, to be finalized. A value
/// of this type is the calling thread's table as <see cref="Current"/> read it: facades read it once and pass it on, so
/// an inlined rent followed by an inlined return computes the thread-static base once. It is valid only on the reading
/// thread and only until its next cache is stored (which may grow the table), so slow paths read it again.
/// </remarks>
internal readonly struct ThreadCacheTable
{
    /// <summary>The most pools that may be alive at once (ids 0 … MaximumPools − 1).</summary>
    internal const int MaximumPools = 1 << 24;

    private static readonly SortedSet<int> s_freeIds = [];
    private static int s_nextPoolId;
    private static int s_maximumPools = MaximumPools;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static object?[]? t_caches;

    [ThreadStatic]
    private static ScopeLedger? t_ledger;

    [ThreadStatic]
    private static LeaseToken? t_spareTokens;

    [ThreadStatic]
    private static ThreadCacheBase? t_recent;

    [ThreadStatic]
    private static PoolOwner? t_recentOwner;

    [ThreadStatic]
    private static ThreadCacheBase? t_previous;

    [ThreadStatic]
    private static PoolOwner? t_previousOwner;
#pragma warning restore IDE1006

    /// <summary>The calling thread's cache of the pool <paramref name="owner"/> owns if it is one of the two this thread remembered last (<see cref="Remember"/>), else null.</summary>
    /// <remarks>
    /// The object pools' memo in front of the table: two entries, each with its owner in a thread static of its own,
    /// written with it, so the owner check and the cache's load both hang off the thread-static base: two loads to a
    /// checked cache, where the table takes four (the array, the entry, its owner, the compare). Not generic: an object
    /// pool of a reference type runs code shared between item types, where a generic thread static would cost a look-up
    /// in the generic dictionary on every call. An entry whose pool has died keeps that pool's <see cref="PoolOwner"/>
    /// and cache reachable until the thread remembers two other pools or ends.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ThreadCacheBase? Recent(PoolOwner owner)
    {
        if (ReferenceEquals(t_recentOwner, owner))
        {
            return t_recent;
        }

        return ReferenceEquals(t_previousOwner, owner) ? t_previous : null;
    }

    /// <summary>Makes <paramref name="cache"/>, the calling thread's own, the newest entry of <see cref="Recent"/>; the newest before it becomes the other, and the oldest is forgotten.</summary>
    public static void Remember(ThreadCacheBase cache)
    {
        // A pool whose inlined paths are closed (observed) remembers on every call: the newest entry then stays as it
        // is, so the other survives.
        if (ReferenceEquals(t_recent, cache))
        {
            return;
        }

        t_previousOwner = t_recentOwner;
        t_previous = t_recent;
        t_recentOwner = cache.Owner;
        t_recent = cache;
    }

    private readonly object?[]? _entries;

    private ThreadCacheTable(object?[]? entries) => _entries = entries;

    /// <summary>The calling thread's scope ledger where no pool cache carries one, or null until its first such scope.</summary>
    /// <remarks>A thread static of this type, so a scope's rent, ledger and return share one thread-static base.</remarks>
    internal static ScopeLedger? Ledger
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_ledger;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        set => t_ledger = value;
    }

    /// <summary>The head of the calling thread's free list of lease tokens, or null; shares the thread-static base as <see cref="Ledger"/> does.</summary>
    internal static LeaseToken? SpareTokens
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_spareTokens;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        set => t_spareTokens = value;
    }

    /// <summary>The number of ids handed out and not given back (tests).</summary>
    internal static int LiveIds
    {
        get
        {
            lock (s_freeIds)
            {
                return s_nextPoolId - s_freeIds.Count;
            }
        }
    }

    /// <summary>The limit <see cref="AllocatePoolId"/> enforces: <see cref="MaximumPools"/>, lowered by tests (which restore it) so that running out takes a few pools.</summary>
    internal static int MaximumPoolsForTest
    {
        get
        {
            lock (s_freeIds)
            {
                return s_maximumPools;
            }
        }

        set
        {
            lock (s_freeIds)
            {
                s_maximumPools = value;
            }
        }
    }

    /// <summary>The length of the calling thread's table (tests).</summary>
    internal static int CurrentThreadTableLength => t_caches?.Length ?? 0;

    /// <summary>A pool id no live pool has: the lowest free one. One id space for pools of every item type.</summary>
    /// <exception cref="InvalidOperationException">More than <see cref="MaximumPools"/> pools are alive at once.</exception>
    public static int AllocatePoolId()
    {
        // A lock: pools are created and finalized rarely, and lowest-id-first keeps every thread's table short.
        lock (s_freeIds)
        {
            if (s_freeIds.Count != 0)
            {
                int id = s_freeIds.Min;
                s_freeIds.Remove(id);
                return id;
            }

            if (s_nextPoolId >= s_maximumPools)
            {
                ThrowHelper.ThrowInvalidOperation($"More than {s_maximumPools} NativePool pools are alive at once.");
            }

            return s_nextPoolId++;
        }
    }

    /// <summary>Gives <paramref name="poolId"/> back for reuse; its pool must never use it again.</summary>
    /// <returns>False, changing nothing, for an id never handed out (the extension's among them) or already free: taking it would give one id to two pools.</returns>
    public static bool ReleasePoolId(int poolId)
    {
        lock (s_freeIds)
        {
            return poolId >= 0 && poolId < s_nextPoolId && s_freeIds.Add(poolId);
        }
    }

    /// <summary>The calling thread's table (empty until its first cache).</summary>
    public static ThreadCacheTable Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(t_caches);
    }

    /// <summary>The entry at <paramref name="poolId"/> (a cache of that pool or of a dead one that had the id), or null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public object? Get(int poolId)
    {
        object?[]? entries = _entries;
        return entries is not null && (uint)poolId < (uint)entries.Length ? entries[poolId] : null;
    }

    /// <summary>Stores this thread's cache for pool <paramref name="poolId"/>, growing the table as needed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Set(int poolId, ThreadCacheBase cache)
    {
        object?[]? caches = t_caches;
        if (caches is null || (uint)poolId >= (uint)caches.Length)
        {
            // Ids are below MaximumPools (2^24), so the power of two above one always fits an int.
            int length = (int)Math.Max(16u, BitOperations.RoundUpToPowerOf2((uint)poolId + 1));
            Array.Resize(ref caches, length);
            t_caches = caches;
        }

        caches[poolId] = cache;
    }
}
