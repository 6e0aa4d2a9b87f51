using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>The engine's reading of one pool's counters, which the facade hands out as its public <c>PoolStatistics</c>.</summary>
/// <param name="Allocated">Items created because the pool had none to hand out.</param>
/// <param name="Dropped">Returned items the pool did not keep, and items parked on threads that died.</param>
/// <param name="Trimmed">Items removed by trimming.</param>
/// <param name="Pooled">Items in the pool now.</param>
/// <param name="PooledBytes">Bytes held by the items in the pool now.</param>
/// <param name="Misuses">Misuses the pool reported.</param>
[StructLayout(LayoutKind.Auto)]
internal readonly record struct PoolCounts(long Allocated, long Dropped, long Trimmed, long Pooled, long PooledBytes, long Misuses);
