namespace NativePool;

/// <summary>What every thread cache has, whatever its item type: the pool it belongs to.</summary>
/// <remarks>
/// Pool ids are recycled, so a thread's table may hold, at a pool's id, the cache of a dead pool of another item type.
/// A pool reads <see cref="Owner"/> through this non-generic base (sound for every entry) and treats the entry as its
/// own cache only when it is the owner.
/// </remarks>
internal abstract class ThreadCacheBase
{
    /// <summary>Creates a cache of the pool whose shared state is <paramref name="owner"/>.</summary>
    protected ThreadCacheBase(PoolOwner owner) => Owner = owner;

    /// <summary>The shared state of the pool this cache belongs to; its identity is the pool's.</summary>
    public PoolOwner Owner { get; }
}
