using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>The <c>NativePool</c> meter: observable instruments that read every live pool's statistics when a listener observes them (nothing is counted on a rent or return).</summary>
/// <remarks>
/// The instruments (counts, bytes, per size class, stream storage, the process budget) are listed in
/// <c>docs/diagnostics.md</c>. Every measurement is tagged with the pool's name, kind and instance number, unique in the
/// process, so two pools of one name are two series. The default meter is created with the first pool, so
/// <c>dotnet-counters monitor --counters NativePool</c> sees it; applications that use <see cref="IMeterFactory"/> call
/// <see cref="CreateMeter(IMeterFactory)"/> and listen to that meter instead (listening to both reports every pool twice).
/// </remarks>
public static class NativePoolMetrics
{
    /// <summary>The meter's name, and the name to pass to <c>dotnet-counters</c>.</summary>
    public const string MeterName = "NativePool";

    /// <summary>The tag holding the pool's name.</summary>
    public const string PoolNameTag = "nativepool.pool.name";

    /// <summary>The tag holding what the pool hands out: <c>array</c>, <c>memory</c>, <c>object</c> or <c>native</c>.</summary>
    public const string PoolKindTag = "nativepool.pool.kind";

    /// <summary>The tag holding the pool's instance number, unique in the process (a <see cref="long"/>).</summary>
    public const string PoolInstanceTag = "nativepool.pool.instance";

    /// <summary>The tag holding the bytes one item of a size class holds, on <c>nativepool.size_class.pooled</c>.</summary>
    public const string SizeClassTag = "nativepool.size_class";

    /// <summary>The tag holding which storage of a stream manager a reading counts: <c>block</c> or <c>buffer</c> (contiguous buffers).</summary>
    public const string StreamStorageTag = "nativepool.stream.storage";

    private static readonly ConditionalWeakTable<Meter, object> s_instrumented = new();
    private static Meter? s_defaultMeter;

    /// <summary>The process-wide meter (<c>new Meter("NativePool")</c>), with the instruments on it.</summary>
    public static Meter DefaultMeter => EnsureDefaultMeter();

    /// <summary>Creates the <c>NativePool</c> meter through <paramref name="meterFactory"/> and puts the instruments on it.</summary>
    /// <param name="meterFactory">The application's meter factory (from dependency injection).</param>
    /// <returns>The factory's meter; calling again with the same factory returns the same meter without duplicating instruments.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="meterFactory"/> is null.</exception>
    public static Meter CreateMeter(IMeterFactory meterFactory)
    {
        if (meterFactory is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(meterFactory));
        }

        Meter meter = meterFactory.Create(new MeterOptions(MeterName));
        AddInstruments(meter);
        return meter;
    }

    /// <summary>Creates the default meter once.</summary>
    internal static Meter EnsureDefaultMeter()
    {
        // Volatile: pairs with the publishing CompareExchange below; a reader sees a meter with its instruments.
        if (Volatile.Read(ref s_defaultMeter) is { } meter)
        {
            return meter;
        }

        var created = new Meter(MeterName);

        // Interlocked: two threads may create the first pools at once; one meter wins, the other is disposed unused.
        if (Interlocked.CompareExchange(ref s_defaultMeter, created, null) is { } winner)
        {
            created.Dispose();
            return winner;
        }

        AddInstruments(created);
        return created;
    }

    private static void AddInstruments(Meter meter)
    {
        lock (s_instrumented)
        {
            if (s_instrumented.TryGetValue(meter, out _))
            {
                return;
            }

            s_instrumented.Add(meter, meter);
        }

        meter.CreateObservableCounter("nativepool.allocated", static () => ObserveTotals(static s => s.Allocated), "{item}", "Items the pools created because they had none to hand out.");
        meter.CreateObservableCounter("nativepool.dropped", static () => ObserveTotals(static s => s.Dropped), "{item}", "Returned items the pools did not keep.");
        meter.CreateObservableCounter("nativepool.trimmed", static () => ObserveTotals(static s => s.Trimmed), "{item}", "Items the pools released by trimming.");
        meter.CreateObservableCounter("nativepool.misuses", static () => ObserveTotals(static s => s.Misuses), "{misuse}", "Misuses the pools reported: double returns they saw, and in guarded mode foreign returns and writes after return.");
        meter.CreateObservableUpDownCounter("nativepool.outstanding", static () => ObserveTotals(static s => s.Outstanding), "{item}", "Items callers hold now.");
        meter.CreateObservableUpDownCounter("nativepool.pooled", static () => ObserveTotals(static s => s.Pooled), "{item}", "Items the pools hold now.");
        meter.CreateObservableUpDownCounter("nativepool.memory.pooled", static () => ObserveTotals(static s => s.PooledBytes), "By", "Bytes held by the items the pools hold now.");
        meter.CreateObservableUpDownCounter("nativepool.size_class.pooled", ObserveSizeClasses, "{item}", "Items the pools hold now, per size class that holds any.");
        meter.CreateObservableUpDownCounter("nativepool.stream.memory.in_use", static () => ObserveStreams(inUse: true), "By", "Bytes of blocks and of contiguous buffers that pooled streams hold now.");
        meter.CreateObservableUpDownCounter("nativepool.stream.memory.free", static () => ObserveStreams(inUse: false), "By", "Bytes of free blocks and of free contiguous buffers the stream managers keep.");
        // A malformed budget setting stops the pools that read it, not the meter: its budget instruments are left out.
        if (RetentionBudget.TryReadProcess() is { } budget)
        {
            meter.CreateObservableUpDownCounter("nativepool.budget.used", () => budget.Used, "By", "Bytes the stripes of all pools hold now, counted against the process's byte budget.");
            meter.CreateObservableUpDownCounter("nativepool.budget.limit", () => budget.Limit, "By", "The process's byte budget.");
        }
    }

    private static List<Measurement<long>> ObserveTotals(Func<PoolStatistics, long> read)
    {
        List<IObservablePool> pools = PoolRegistry.GetLivePools();
        var measurements = new List<Measurement<long>>(pools.Count);
        foreach (IObservablePool pool in pools)
        {
            measurements.Add(new Measurement<long>(read(PoolStatistics.From(pool.ReadCounts())), PoolTags(pool)));
        }

        return measurements;
    }

    private static List<Measurement<long>> ObserveSizeClasses()
    {
        var measurements = new List<Measurement<long>>();
        foreach (IObservablePool pool in PoolRegistry.GetLivePools())
        {
            if (pool.ClassCount == 1 && pool.GetItemBytes(0) == 0)
            {
                continue;
            }

            for (int c = 0; c < pool.ClassCount; c++)
            {
                long count = pool.CountPooled(c);
                if (count != 0)
                {
                    KeyValuePair<string, object?>[] tags = [.. PoolTags(pool), new(SizeClassTag, pool.GetItemBytes(c))];
                    measurements.Add(new Measurement<long>(count, tags));
                }
            }
        }

        return measurements;
    }

    private static List<Measurement<long>> ObserveStreams(bool inUse)
    {
        var measurements = new List<Measurement<long>>();
        foreach (PooledStreamManager manager in PooledStreamManager.GetLiveManagers())
        {
            KeyValuePair<string, object?>[] tags = PoolTags(manager.Buffers.Engine);
            measurements.Add(new Measurement<long>(inUse ? manager.BlockBytesInUse : manager.BlockBytesFree, [.. tags, new(StreamStorageTag, "block")]));
            measurements.Add(new Measurement<long>(inUse ? manager.BufferBytesInUse : manager.BufferBytesFree, [.. tags, new(StreamStorageTag, "buffer")]));
        }

        return measurements;
    }

    private static KeyValuePair<string, object?>[] PoolTags(IObservablePool pool) =>
        [new(PoolNameTag, pool.Name), new(PoolKindTag, pool.Kind), new(PoolInstanceTag, PoolRegistry.GetInstance(pool))];
}
