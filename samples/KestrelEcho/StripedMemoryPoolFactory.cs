using System.Buffers;
using System.Collections.Generic;
using System.Collections.Concurrent;
using Microsoft.AspNetCore.Connections;

namespace NativePool.Samples.KestrelEcho;

/// <summary>
/// Gives Kestrel's transports their memory from NativePool: register it as the <see cref="IMemoryPoolFactory{T}"/> of
/// bytes (<c>services.AddSingleton&lt;IMemoryPoolFactory&lt;byte&gt;&gt;(new StripedMemoryPoolFactory())</c>) and the
/// socket transport rents every read and write buffer from it.
/// </summary>
/// <remarks>
/// By default every transport shares <see cref="StripedMemoryPool{T}.Shared"/> (Kestrel disposes the pools it gets when it
/// stops; disposing <c>Shared</c> does nothing). Given options, each <see cref="Create"/> makes an independent pool instead,
/// which Kestrel disposes with its transport; <see cref="GetStatistics"/> sums them.
/// </remarks>
internal sealed class StripedMemoryPoolFactory : IMemoryPoolFactory<byte>
{
    private readonly StripedMemoryPoolOptions? _options;
    private readonly ConcurrentQueue<StripedMemoryPool<byte>> _created = new();

    /// <summary>A factory that hands every transport <see cref="StripedMemoryPool{T}.Shared"/>.</summary>
    public StripedMemoryPoolFactory()
    {
    }

    /// <summary>A factory that makes one independent pool per transport, shaped by <paramref name="options"/>.</summary>
    public StripedMemoryPoolFactory(StripedMemoryPoolOptions options) => _options = options;

    /// <summary>The pools this factory made (independent pools only).</summary>
    public IReadOnlyCollection<StripedMemoryPool<byte>> CreatedPools => _created;

    /// <summary>Called by Kestrel once per transport; <paramref name="options"/> only names the owner for diagnostics.</summary>
    public MemoryPool<byte> Create(MemoryPoolOptions? options = null)
    {
        if (_options is null)
        {
            return StripedMemoryPool<byte>.Shared;
        }

        StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(_options);
        _created.Enqueue(pool);
        return pool;
    }

    /// <summary>The counters of every pool this factory made, summed (or of <c>Shared</c>).</summary>
    public PoolStatistics GetStatistics()
    {
        if (_options is null)
        {
            return StripedMemoryPool<byte>.Shared.GetStatistics();
        }

        var total = default(PoolStatistics);
        foreach (StripedMemoryPool<byte> pool in _created)
        {
            PoolStatistics s = pool.GetStatistics();
            total = total with
            {
                Allocated = total.Allocated + s.Allocated,
                Dropped = total.Dropped + s.Dropped,
                Trimmed = total.Trimmed + s.Trimmed,
                Pooled = total.Pooled + s.Pooled,
                PooledBytes = total.PooledBytes + s.PooledBytes,
            };
        }

        return total;
    }
}
