namespace NativePool.Benchmarks.Peers;

/// <summary>
/// The row labels every table uses (BenchmarkDotNet method descriptions). The report generator finds the rows a goal
/// compares by these names, so a label lives here once.
/// </summary>
public static class PeerNames
{
    public const string ArrayPoolShared = "ArrayPool.Shared";
    public const string ArrayPoolScope = "ArrayPool.Shared (scoped struct)";
    public const string ArrayPoolCreate = "ArrayPool.Create()";
    public const string MemoryPoolShared = "MemoryPool.Shared";
    public const string StripedArrayPool = "StripedArrayPool.Shared";
    public const string StripedArrayPoolScoped = "StripedArrayPool.Shared RentScoped";
    public const string StripedArrayPoolCreate = "StripedArrayPool.Create()";
    public const string StripedMemoryPool = "StripedMemoryPool.Shared";
    public const string StripedMemoryPoolScoped = "StripedMemoryPool.Shared RentLease";
    public const string DefaultObjectPool = "DefaultObjectPool (Microsoft)";
    public const string StripedObjectPool = "StripedObjectPool (ours)";
    public const string StripedObjectPoolAbstract = "StripedObjectPool via ObjectPool<T>";
    public const string TeddStyle = "Tedd-style (re-created)";
    public const string WorkOnly = "work only (no pool)";
    public const string ThreadStaticSwap = "[ThreadStatic] slot swap";
    public const string PaddedStripes = "StripeSet (engine, padded)";
    public const string MemoryStream = "MemoryStream";
    public const string RecyclableMemoryStream = "RecyclableMemoryStream 4.0.1";
    public const string PooledStream = "PooledStream (Shared manager)";
    public const string ArrayPoolBufferWriter = "ArrayPoolBufferWriter over ArrayPool.Shared";
    public const string PooledBufferWriter = "PooledBufferWriter";
    public const string UnpaddedStripes = "stripes unpadded (bench-only)";
}
