using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>The engine's reading of one pool's counters, handed out by the facade as <c>PoolStatistics</c>.</summary>
/// <remarks><c>Allocated</c>: created on a miss; <c>Dropped</c>: returns not kept and items parked on dead threads; <c>Trimmed</c>: removed by trimming;
/// <c>Pooled</c>/<c>PooledBytes</c>: held now; <c>Misuses</c>: misuses reported.</remarks>
[StructLayout(LayoutKind.Auto)]
internal readonly record struct PoolCounts(long Allocated, long Dropped, long Trimmed, long Pooled, long PooledBytes, long Misuses);
