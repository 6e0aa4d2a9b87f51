namespace NativePool;

/// <summary>What every thread cache has, whatever its item type: the pool it belongs to.</summary>
/// <remarks>Ids are recycled, so an entry may be a dead pool's cache of another item type: a pool reads <see cref="Owner"/> through this non-generic base, sound for every entry.</remarks>
internal abstract class ThreadCacheBase
{
    /// <summary>Creates a cache of the pool whose shared state is <paramref name="owner"/>.</summary>
    protected ThreadCacheBase(PoolOwner owner) => Owner = owner;

    /// <summary>The shared state of the pool this cache belongs to; its identity is the pool's.</summary>
    public PoolOwner Owner { get; }
}
