using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The calling thread's table of pool caches (<see cref="ThreadCacheTable"/>), read once by a facade's inlined path and
/// passed on to the engine, so an inlined rent followed by an inlined return computes the thread-static base once.
/// </summary>
/// <remarks>
/// A struct around the table's one reference: it travels in a register as the bare array would. It is a snapshot of the
/// reading thread's table, valid only on that thread and only until that thread's next cache is stored (which may
/// replace the table with a longer one); the engine's slow paths therefore look the table up again instead of using it.
/// </remarks>
internal readonly struct ThreadCaches
{
    private readonly object?[]? _entries;

    /// <summary>Wraps the calling thread's table (null until its first cache).</summary>
    /// <param name="entries">The table, indexed by pool id.</param>
    internal ThreadCaches(object?[]? entries) => _entries = entries;

    /// <summary>The entry at <paramref name="poolId"/> (a cache of that pool or of a dead one that had the id), or null.</summary>
    /// <param name="poolId">The pool's id.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public object? Get(int poolId)
    {
        object?[]? entries = _entries;
        return entries is not null && (uint)poolId < (uint)entries.Length ? entries[poolId] : null;
    }
}
