namespace NativePool.Benchmarks.Peers;

/// <summary>Our <see cref="StripedObjectPool{T}"/> of <c>byte[]</c> as an adapter (the sealed type: calls devirtualise), typed by how the pool was built.</summary>
/// <remarks>
/// Generic over a struct only, so each build (<see cref="BuiltFromPolicy"/>, <see cref="BuiltFromFactory"/>) gets a
/// compiled body of its own (see <see cref="IObjectPoolAdapter{T}"/>): a work method then serves one pool configuration,
/// and the profile a pool that calls its policy on every return leaves in a work method never shapes the code timed on a
/// pool that calls none.
/// </remarks>
/// <typeparam name="TBuild">How the pool behind the adapter was built.</typeparam>
public readonly struct StripedPoolAdapter<TBuild>(StripedObjectPool<byte[]> pool) : IObjectPoolAdapter<byte[]>
    where TBuild : struct
{
    public byte[] Take() => pool.Get();

    public void Give(byte[] item) => pool.Return(item);
}
