using System;
using System.Buffers;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Threading;
using Microsoft.AspNetCore.Connections;

namespace NativePool.AspNetCore;

/// <summary>
/// Gives Kestrel's transports their memory from NativePool: every <see cref="Create"/> makes an independent
/// <see cref="StripedMemoryPool{T}"/> of bytes, which the transport disposes when it stops. Register it with
/// <see cref="Microsoft.Extensions.DependencyInjection.StripedKestrelMemoryPoolServiceCollectionExtensions.AddStripedKestrelMemoryPool"/>.
/// </summary>
/// <remarks>
/// Given an <see cref="IMeterFactory"/>, the factory reports Kestrel's <c>aspnetcore.memory_pool.pooled</c>,
/// <c>.allocated</c> and <c>.evicted</c> from its pools' statistics (not <c>.rented</c>: rents are not counted), tagged
/// with the owner Kestrel names in <see cref="MemoryPoolOptions.Owner"/> (see docs/aspnetcore.md). It keeps every pool it
/// made, disposed ones included, so the instruments never go backwards.
/// </remarks>
public sealed class StripedKestrelMemoryPoolFactory : IMemoryPoolFactory<byte>, IDisposable
{
    /// <summary>The pools' name in NativePool's events and metrics when the options give none.</summary>
    public const string DefaultPoolName = "kestrel";

    /// <summary>
    /// The pools' largest buffer unless configured: 4 KiB, Kestrel's block size. Kestrel's pipes then rent 4 KiB
    /// segments only and take larger buffers from the GC, as with Kestrel's own pool.
    /// </summary>
    public const int DefaultMaximumBufferLength = 4096;

    private readonly StripedMemoryPoolOptions _options;
    private readonly ConcurrentQueue<CreatedPool> _pools = new();
    private readonly KestrelMemoryPoolInstruments? _instruments;
    private int _disposed;

    /// <summary>
    /// A factory of pools with the defaults (<see cref="DefaultMaximumBufferLength"/>, <see cref="DefaultPoolName"/>,
    /// pooled owners handed out as Kestrel's own pool does) and no instruments.
    /// </summary>
    public StripedKestrelMemoryPoolFactory()
        : this(options: null, meterFactory: null)
    {
    }

    /// <summary>A factory of pools shaped by <paramref name="options"/>, reporting Kestrel's instruments through <paramref name="meterFactory"/>.</summary>
    /// <param name="options">
    /// The pools' shape, copied now with <see cref="PoolOptions.Clone"/>, every option and the clock included (null: the
    /// defaults, with <see cref="StripedMemoryPoolOptions.MaximumBufferLength"/> <see cref="DefaultMaximumBufferLength"/>
    /// and <see cref="StripedMemoryPoolOptions.ReuseOwners"/> true); a null <see cref="PoolOptions.Name"/> becomes
    /// <see cref="DefaultPoolName"/>. Values out of range make <see cref="Create"/> throw
    /// <see cref="ArgumentOutOfRangeException"/>.
    /// </param>
    /// <param name="meterFactory">Creates the <c>Microsoft.AspNetCore.MemoryPool</c> meter; null reports no Kestrel instruments.</param>
    public StripedKestrelMemoryPoolFactory(StripedMemoryPoolOptions? options, IMeterFactory? meterFactory)
    {
        _options = (StripedMemoryPoolOptions)(options?.Clone() ?? CreateDefaultOptions());
        _options.Name ??= DefaultPoolName;
        if (meterFactory is not null)
        {
            _instruments = new KestrelMemoryPoolInstruments(meterFactory, this);
        }
    }

    /// <summary>The name the pools carry in NativePool's events and metrics.</summary>
    public string PoolName => _options.Name!;

    /// <summary>The number of pools this factory made (disposed ones included).</summary>
    public int PoolCount => _pools.Count;

    /// <summary>Called by Kestrel once per transport: a new pool, which the transport disposes when it stops.</summary>
    /// <param name="options">Kestrel's description of the pool; its <see cref="MemoryPoolOptions.Owner"/> tags the instruments.</param>
    /// <returns>A new <see cref="StripedMemoryPool{T}"/> of bytes.</returns>
    /// <exception cref="ObjectDisposedException">The factory has been disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option given to the factory is out of range; ParamName names it.</exception>
    public MemoryPool<byte> Create(MemoryPoolOptions? options = null)
    {
        // Volatile: a Dispose on another thread (the container's) stops new pools.
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0, this);

        StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Create(_options);
        _pools.Enqueue(new CreatedPool(pool, string.IsNullOrEmpty(options?.Owner) ? null : options.Owner));
        return pool;
    }

    /// <summary>The counters of every pool this factory made, summed.</summary>
    /// <returns>A snapshot; exact once no connection is reading or writing (then <see cref="PoolStatistics.Outstanding"/> is the buffers Kestrel holds).</returns>
    public PoolStatistics GetStatistics()
    {
        var total = default(PoolStatistics);
        foreach (CreatedPool created in _pools)
        {
            total = Add(total, created.Pool.GetStatistics());
        }

        return total;
    }

    /// <summary>Disposes the pools still in use (Kestrel normally has disposed them); later <see cref="Create"/> calls throw.</summary>
    public void Dispose()
    {
        // Interlocked: the container and a user may dispose at once; the pools are disposed once.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        foreach (CreatedPool created in _pools)
        {
            created.Pool.Dispose();
        }
    }

    /// <summary>The options the factory and its registration start from (Kestrel's pipes dispose every owner exactly once, so owners are reused).</summary>
    internal static StripedMemoryPoolOptions CreateDefaultOptions() =>
        new() { MaximumBufferLength = DefaultMaximumBufferLength, Name = DefaultPoolName, ReuseOwners = true };

    /// <summary>The pools and their owners, for the instruments.</summary>
    internal IEnumerable<CreatedPool> Pools => _pools;

    internal static PoolStatistics Add(PoolStatistics total, PoolStatistics s) => total with
    {
        Allocated = total.Allocated + s.Allocated,
        Dropped = total.Dropped + s.Dropped,
        Trimmed = total.Trimmed + s.Trimmed,
        Pooled = total.Pooled + s.Pooled,
        PooledBytes = total.PooledBytes + s.PooledBytes,
        Misuses = total.Misuses + s.Misuses,
    };

    /// <summary>A pool this factory made, and the owner Kestrel named for it (null when none).</summary>
    internal readonly record struct CreatedPool(StripedMemoryPool<byte> Pool, string? Owner);
}
