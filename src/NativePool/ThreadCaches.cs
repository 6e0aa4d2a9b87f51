using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The calling thread's table of pool caches (<see cref="ThreadCacheTable"/>), read once by a facade's inlined path and
/// passed on to the engine, so an inlined rent followed by an inlined return computes the thread-static base once.
/// </summary>
/// <remarks>
/// It travels in a register as the bare array would. A snapshot, valid only on the reading thread and only until its
/// next cache is stored (which may grow the table), so the engine's slow paths look the table up again.
/// </remarks>
internal readonly struct ThreadCaches
{
    private readonly object?[]? _entries;

    /// <summary>Wraps the calling thread's table, indexed by pool id (null until its first cache).</summary>
    internal ThreadCaches(object?[]? entries) => _entries = entries;

    /// <summary>The entry at <paramref name="poolId"/> (a cache of that pool or of a dead one that had the id), or null.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public object? Get(int poolId)
    {
        object?[]? entries = _entries;
        return entries is not null && (uint)poolId < (uint)entries.Length ? entries[poolId] : null;
    }
}
