using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>Each thread's table of pool caches, indexed by pool id: the thread-local tier of every pool instance.</summary>
/// <remarks>
/// One <c>[ThreadStatic]</c> array serves <c>Shared</c> and every instance made with <c>Create</c> alike, so independent
/// pools get the same fast path. Ids come from <see cref="AllocatePoolId"/> for pools of every item type and are never
/// reused, so an entry can only ever belong to the pool whose id it is (and is of that pool's cache type).
/// </remarks>
internal static class ThreadCacheTable
{
    private static int s_nextPoolId = -1;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static object?[]? t_caches;
#pragma warning restore IDE1006

    /// <summary>A new process-unique pool id. One counter for every pool of every item type, because all of them share
    /// this one table and each entry is cast to its pool's cache type without a check.</summary>
    public static int AllocatePoolId() =>
        // Interlocked: pools are created concurrently on many threads; each must get an id no other pool ever had.
        Interlocked.Increment(ref s_nextPoolId);

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
