using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>Each thread's table of pool caches, indexed by pool id: the thread-local tier of every pool instance.</summary>
/// <remarks>
/// One <c>[ThreadStatic]</c> array serves <c>Shared</c> and every instance made with <c>Create</c> alike, so independent
/// pools get the same fast path. Ids are never reused, so an entry can only ever belong to the pool whose id it is.
/// </remarks>
internal static class ThreadCacheTable
{
#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static object?[]? t_caches;
#pragma warning restore IDE1006

    private static int s_lastPoolId = -1;

    /// <summary>A new pool id, unique across every pool of every element type in the process.</summary>
    /// <remarks>
    /// The table is shared by all element types and each pool reads its entry back with an unchecked cast, so the
    /// counter must live here, outside any generic type: a per-instantiation counter would give the first pool of
    /// every element type id 0, and those pools would take each other's thread caches (and items) for their own.
    /// </remarks>
    public static int NewPoolId()
    {
        // Interlocked: pools of any element type may be created on several threads at once; each must get its own id.
        return Interlocked.Increment(ref s_lastPoolId);
    }

    /// <summary>This thread's cache for pool <paramref name="poolId"/>, or null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static object? Get(int poolId)
    {
        object?[]? caches = t_caches;
        return caches is not null && (uint)poolId < (uint)caches.Length ? caches[poolId] : null;
    }

    /// <summary>Stores this thread's cache for pool <paramref name="poolId"/>, growing the table as needed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Set(int poolId, object cache)
    {
        object?[]? caches = t_caches;
        if (caches is null || poolId >= caches.Length)
        {
            int length = Math.Max(16, caches?.Length ?? 0);
            while (length <= poolId)
            {
                length *= 2;
            }

            Array.Resize(ref caches, length);
            t_caches = caches;
        }

        caches[poolId] = cache;
    }
}
