using System;
using System.Collections.Generic;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Each thread's table of pool caches, indexed by pool id: the thread-local tier of every pool instance.</summary>
/// <remarks>
/// One <c>[ThreadStatic]</c> array serves shared and created pools alike. Ids are recycled, lowest free first, so a
/// table is as long as the most pools alive at once; an entry may therefore hold a dead pool's cache, which a pool uses
/// only when it names it as owner (<see cref="ThreadCacheBase.Owner"/>) and otherwise replaces, to be finalized.
/// </remarks>
internal static class ThreadCacheTable
{
    /// <summary>The most pools that may be alive at once (ids 0 … MaximumPools − 1).</summary>
    internal const int MaximumPools = 1 << 24;

    /// <summary>The table index of the thread's <see cref="Extension"/>; pool ids start after it.</summary>
    internal const int ExtensionIndex = 0;

    private static readonly SortedSet<int> s_freeIds = [];
    private static int s_nextPoolId = ExtensionIndex + 1;
    private static int s_maximumPools = MaximumPools;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static object?[]? t_caches;

    [ThreadStatic]
    private static object? t_sideExtension;
#pragma warning restore IDE1006

    /// <summary>The facade's per-thread object (its scope ledger), or null; the engine never reads it.</summary>
    /// <remarks>It lives at <see cref="ExtensionIndex"/> of the table (no pool has that id), so a scope's rent, ledger and return share one thread-static access.</remarks>
    internal static object? Extension
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            object?[]? caches = t_caches;
            return caches is not null && caches.Length != 0 ? caches[ExtensionIndex] : null;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        set => SetEntry(ExtensionIndex, value);
    }

    /// <summary>A second per-thread object of the facade's (its lease-token free list), sharing this class's thread-static base; the engine never reads it.</summary>
    internal static object? SideExtension
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_sideExtension;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        set => t_sideExtension = value;
    }

    /// <summary>The number of ids handed out and not given back (tests).</summary>
    internal static int LiveIds
    {
        get
        {
            lock (s_freeIds)
            {
                return s_nextPoolId - (ExtensionIndex + 1) - s_freeIds.Count;
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
            return poolId > ExtensionIndex && poolId < s_nextPoolId && s_freeIds.Add(poolId);
        }
    }

    /// <summary>The calling thread's table (empty until its first cache).</summary>
    /// <remarks>Facades read it first thing on every path, so the JIT computes the thread-static base once for an inlined <c>Rent</c> followed by an inlined <c>Return</c>.</remarks>
    public static ThreadCaches Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(t_caches);
    }

    /// <summary>Stores this thread's cache for pool <paramref name="poolId"/>, growing the table as needed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Set(int poolId, ThreadCacheBase cache) => SetEntry(poolId, cache);

    private static void SetEntry(int poolId, object? cache)
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
