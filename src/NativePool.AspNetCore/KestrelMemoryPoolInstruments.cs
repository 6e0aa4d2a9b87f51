using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;

namespace NativePool.AspNetCore;

/// <summary>
/// Kestrel's memory-pool instruments, read from one factory's pools' statistics when a listener collects (rents are not
/// counted, so there is no <c>rented</c>). Buffer counts become bytes at one Kestrel segment per buffer: exact while every
/// rent is one segment, as Kestrel's pipes rent with the factory's default 4 KiB maximum (docs/aspnetcore.md).
/// </summary>
internal sealed class KestrelMemoryPoolInstruments
{
    /// <summary>The meter's name: Kestrel's own.</summary>
    public const string MeterName = "Microsoft.AspNetCore.MemoryPool";

    /// <summary>Bytes the pools hold now.</summary>
    public const string PooledName = "aspnetcore.memory_pool.pooled";

    /// <summary>Bytes the pools allocated.</summary>
    public const string AllocatedName = "aspnetcore.memory_pool.allocated";

    /// <summary>Bytes the pools let go (trimmed or not kept).</summary>
    public const string EvictedName = "aspnetcore.memory_pool.evicted";

    /// <summary>The tag naming the pool's owner.</summary>
    public const string OwnerTag = "aspnetcore.memory_pool.owner";

    /// <summary>The segment Kestrel's pipes rent from a pool whose buffers may be larger.</summary>
    private const int KestrelSegmentLength = 4096;

    private readonly StripedKestrelMemoryPoolFactory _factory;

    public KestrelMemoryPoolInstruments(IMeterFactory meterFactory, StripedKestrelMemoryPoolFactory factory)
    {
        _factory = factory;
        Meter meter = meterFactory.Create(new MeterOptions(MeterName));
        meter.CreateObservableUpDownCounter(
            PooledName, () => Observe(static (statistics, _) => statistics.PooledBytes), "By", "Number of bytes currently held by the memory pool and available for reuse.");
        meter.CreateObservableCounter(
            AllocatedName, () => Observe(static (statistics, segment) => statistics.Allocated * segment), "By", "Total number of bytes allocated by the memory pool.");
        meter.CreateObservableCounter(
            EvictedName, () => Observe(static (statistics, segment) => (statistics.Trimmed + statistics.Dropped) * segment), "By", "Total number of bytes the memory pool released (trimmed, or returned and not kept).");
    }

    /// <summary>One measurement per owner (pools of one owner summed), so no two measurements carry the same tags.</summary>
    private List<Measurement<long>> Observe(Func<PoolStatistics, long, long> read)
    {
        var byOwner = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (StripedKestrelMemoryPoolFactory.CreatedPool created in _factory.Pools)
        {
            long segment = Math.Min(KestrelSegmentLength, created.Pool.MaxBufferSize);
            string owner = created.Owner ?? string.Empty;
            byOwner[owner] = byOwner.GetValueOrDefault(owner) + read(created.Pool.GetStatistics(), segment);
        }

        var measurements = new List<Measurement<long>>(byOwner.Count);
        foreach (KeyValuePair<string, long> pair in byOwner)
        {
            measurements.Add(pair.Key.Length == 0
                ? new Measurement<long>(pair.Value)
                : new Measurement<long>(pair.Value, new KeyValuePair<string, object?>(OwnerTag, pair.Key)));
        }

        return measurements;
    }
}
