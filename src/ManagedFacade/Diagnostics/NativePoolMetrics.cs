using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The <c>NativePool</c> meter: observable instruments that read every live pool's statistics when a listener
/// observes them (nothing is counted on a rent or return).
/// </summary>
/// <remarks>
/// <para>
/// Instruments: <c>nativepool.allocated</c>, <c>nativepool.dropped</c>, <c>nativepool.trimmed</c> (counters, <c>{item}</c>),
/// <c>nativepool.pooled</c>, <c>nativepool.outstanding</c> (up-down counters, <c>{item}</c>) and
/// <c>nativepool.pooled_bytes</c> (up-down counter, <c>By</c>). Every measurement is tagged <c>pool.name</c> and
/// <c>pool.kind</c> (<c>array</c>, <c>memory</c>, <c>object</c>, <c>native</c> or <c>stream</c>); for pools with size classes,
/// <c>nativepool.pooled</c> and <c>nativepool.pooled_bytes</c> are reported per class, tagged <c>pool.size_class</c>
/// (the bytes one item of the class holds).
/// </para>
/// <para>
/// The default meter is created with the first pool, so <c>dotnet-counters monitor --counters NativePool</c> sees it
/// without any setup. Applications that use <see cref="IMeterFactory"/> call <see cref="CreateMeter(IMeterFactory)"/>
/// and listen to that meter instead (listening to both reports every pool twice).
/// </para>
/// </remarks>
public static class NativePoolMetrics
{
    /// <summary>The meter's name, and the name to pass to <c>dotnet-counters</c>.</summary>
    public const string MeterName = "NativePool";

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
    /// <returns>The default meter.</returns>
    internal static Meter EnsureDefaultMeter()
    {
        // Volatile: pairs with the publishing CompareExchange below; a reader sees a meter with its instruments.
        Meter? meter = Volatile.Read(ref s_defaultMeter);
        if (meter is not null)
        {
            return meter;
        }

        var created = new Meter(MeterName);

        // Interlocked: two threads may create the first pools at once; one meter wins, the other is disposed unused.
        meter = Interlocked.CompareExchange(ref s_defaultMeter, created, null);
        if (meter is not null)
        {
            created.Dispose();
            return meter;
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
        meter.CreateObservableUpDownCounter("nativepool.outstanding", static () => ObserveTotals(static s => s.Outstanding), "{item}", "Items callers hold now.");
        meter.CreateObservableUpDownCounter("nativepool.pooled", static () => ObservePooled(bytes: false), "{item}", "Items the pools hold now.");
        meter.CreateObservableUpDownCounter("nativepool.pooled_bytes", static () => ObservePooled(bytes: true), "By", "Bytes held by the items the pools hold now.");
    }

    private static List<Measurement<long>> ObserveTotals(Func<PoolStatistics, long> read)
    {
        List<IObservablePool> pools = PoolRegistry.GetLivePools();
        var measurements = new List<Measurement<long>>(pools.Count);
        foreach (IObservablePool pool in pools)
        {
            measurements.Add(new Measurement<long>(read(pool.GetStatistics()), Tag("pool.name", pool.Name), Tag("pool.kind", pool.Kind)));
        }

        return measurements;
    }

    private static List<Measurement<long>> ObservePooled(bool bytes)
    {
        List<IObservablePool> pools = PoolRegistry.GetLivePools();
        var measurements = new List<Measurement<long>>(pools.Count);
        foreach (IObservablePool pool in pools)
        {
            if (pool.ClassCount == 1 && pool.GetItemBytes(0) == 0)
            {
                PoolStatistics statistics = pool.GetStatistics();
                measurements.Add(new Measurement<long>(bytes ? statistics.PooledBytes : statistics.Pooled, Tag("pool.name", pool.Name), Tag("pool.kind", pool.Kind)));
                continue;
            }

            for (int c = 0; c < pool.ClassCount; c++)
            {
                long itemBytes = pool.GetItemBytes(c);
                long count = pool.CountPooled(c);
                measurements.Add(new Measurement<long>(
                    bytes ? count * itemBytes : count, Tag("pool.name", pool.Name), Tag("pool.kind", pool.Kind), Tag("pool.size_class", itemBytes)));
            }
        }

        return measurements;
    }

    private static KeyValuePair<string, object?> Tag(string key, object? value) => new(key, value);
}
