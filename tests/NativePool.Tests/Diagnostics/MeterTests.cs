using System.Diagnostics.Metrics;

namespace NativePool.Tests.Diagnostics;

/// <summary>The NativePool meter, read in-process with a <see cref="MeterListener"/> and filtered by pool name.</summary>
public class MeterTests
{
    [Fact]
    public void TheMeterReportsExactCountsForAScriptedSequence()
    {
        string name = "meter-" + Guid.NewGuid().ToString("N");
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Name = name, MaximumArrayLength = 1024, TrimmingEnabled = false });

        byte[] a = pool.Rent(100);
        byte[] b = pool.Rent(100);
        byte[] big = pool.Rent(5000);
        pool.Return(a);
        pool.Return(b);
        pool.Return(big);

        Observation before = Observe(NativePoolMetrics.DefaultMeter, name);
        AssertTotals(before, allocated: 3, dropped: 1, trimmed: 0, pooled: 2, outstanding: 0, pooledBytes: 256);
        Assert.Equal(2, before.SumWhere("nativepool.size_class.pooled", NativePoolMetrics.SizeClassTag, 128L));
        // Only the class that holds something has a per-class series.
        Assert.Single(before.Measurements, m => m.Instrument == "nativepool.size_class.pooled");
        Assert.All(before.Measurements, m => Assert.Equal("array", m.Tags[NativePoolMetrics.PoolKindTag]));

        byte[] held = pool.Rent(16);
        Assert.Equal(2, pool.Clear());

        Observation after = Observe(NativePoolMetrics.DefaultMeter, name);
        AssertTotals(after, allocated: 4, dropped: 1, trimmed: 2, pooled: 0, outstanding: 1, pooledBytes: 0);
        Assert.DoesNotContain(after.Measurements, m => m.Instrument == "nativepool.size_class.pooled");
        GC.KeepAlive(held);
    }

    [Fact]
    public void TheMisusesInstrumentCountsEachReportedDoubleReturnOfItsPool()
    {
        string name = "misuses-" + Guid.NewGuid().ToString("N");
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Name = name, DoubleReturnPolicy = PoolMisusePolicy.Report, TrimmingEnabled = false });
        Assert.Equal(0, Observe(NativePoolMetrics.DefaultMeter, name).Sum("nativepool.misuses"));

        for (int misuse = 1; misuse <= 2; misuse++)
        {
            byte[] array = pool.Rent(100);
            pool.Return(array);
            #pragma warning disable NP0001 // The double return is the misuse under test.
            pool.Return(array);
            #pragma warning restore NP0001

            Observation observation = Observe(NativePoolMetrics.DefaultMeter, name);
            Assert.Equal(misuse, observation.Sum("nativepool.misuses"));
            Assert.Single(observation.Measurements, m => m.Instrument == "nativepool.misuses");
        }
    }

    [Fact]
    public void AStreamManagerReportsTheBytesOfItsBlocksAndBuffersInUseAndFree()
    {
        string name = "stream-meter-" + Guid.NewGuid().ToString("N");
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { Name = name, BlockSize = 1024, TrimmingEnabled = false });
        PooledStream stream = manager.GetStream();
        stream.Write(new byte[3 * 1024]);

        Observation writing = Observe(NativePoolMetrics.DefaultMeter, name);
        Assert.Equal(3 * 1024, writing.SumWhere("nativepool.stream.memory.in_use", NativePoolMetrics.StreamStorageTag, "block"));
        Assert.Equal(0, writing.SumWhere("nativepool.stream.memory.in_use", NativePoolMetrics.StreamStorageTag, "buffer"));
        Assert.All(writing.Measurements, m => Assert.Equal("stream", m.Tags[NativePoolMetrics.PoolKindTag]));

        // The contiguous buffer joins the blocks, which stay the stream's until Dispose.
        int buffer = stream.GetBuffer().Length;
        Observation converted = Observe(NativePoolMetrics.DefaultMeter, name);
        Assert.Equal(3 * 1024, converted.SumWhere("nativepool.stream.memory.in_use", NativePoolMetrics.StreamStorageTag, "block"));
        Assert.Equal(buffer, converted.SumWhere("nativepool.stream.memory.in_use", NativePoolMetrics.StreamStorageTag, "buffer"));

        stream.Dispose();
        Observation disposed = Observe(NativePoolMetrics.DefaultMeter, name);
        Assert.Equal(0, disposed.Sum("nativepool.stream.memory.in_use"));
        Assert.Equal(3 * 1024, disposed.SumWhere("nativepool.stream.memory.free", NativePoolMetrics.StreamStorageTag, "block"));
        Assert.Equal(buffer, disposed.SumWhere("nativepool.stream.memory.free", NativePoolMetrics.StreamStorageTag, "buffer"));
        Assert.Equal(manager.GetStatistics().PooledBytes, disposed.Sum("nativepool.stream.memory.free"));
    }

    [Fact]
    public void AMeterFromAMeterFactoryReportsTheSamePools()
    {
        string name = "factory-" + Guid.NewGuid().ToString("N");
        var pool = new StripedObjectPool<object>(() => new object(), cleanup: null, new StripedObjectPoolOptions { Name = name });
        object item = pool.Get();
        using var factory = new TestMeterFactory();

        Meter meter = NativePoolMetrics.CreateMeter(factory);
        Assert.Same(meter, NativePoolMetrics.CreateMeter(factory));

        Observation observation = Observe(meter, name);
        Assert.Equal(1, observation.Sum("nativepool.allocated"));
        Assert.Equal(1, observation.Sum("nativepool.outstanding"));
        Assert.Equal(0, observation.Sum("nativepool.pooled"));
        Assert.All(observation.Measurements, m => Assert.Equal("object", m.Tags[NativePoolMetrics.PoolKindTag]));

        // One measurement per pool-level instrument (an object pool has no size classes): creating the meter twice did
        // not duplicate its instruments.
        Assert.Equal(7, observation.Measurements.Count);
        pool.Return(item);
    }

    [Fact]
    public void TwoPoolsWithOneNameAreTwoCorrectSeries()
    {
        string name = "twins-" + Guid.NewGuid().ToString("N");
        var options = new StripedArrayPoolOptions { Name = name, MaximumArrayLength = 1024, TrimmingEnabled = false };
        var first = StripedArrayPool<byte>.Create(options);
        var second = StripedArrayPool<byte>.Create(options);
        byte[][] firstHeld = [.. Enumerable.Range(0, 9).Select(_ => first.Rent(100))];
        byte[][] secondHeld = [.. Enumerable.Range(0, 8).Select(_ => second.Rent(100))];
        second.Return(secondHeld[0]);

        Observation observation = Observe(NativePoolMetrics.DefaultMeter, name);

        // No two measurements of one instrument carry the same tags: every series belongs to exactly one pool.
        string[] series = [.. observation.Measurements.Select(m => m.Instrument + "|" + string.Join(",", m.Tags.OrderBy(t => t.Key).Select(t => $"{t.Key}={t.Value}")))];
        Assert.Equal(series.Length, series.Distinct().Count());
        var byInstance = observation.Measurements
            .Where(m => m.Instrument == "nativepool.allocated")
            .ToDictionary(m => (long)m.Tags[NativePoolMetrics.PoolInstanceTag]!, m => m.Value);
        Assert.Equal(2, byInstance.Count);
        Assert.Equal([8L, 9L], byInstance.Values.Order());
        Assert.Equal(17, observation.Sum("nativepool.allocated"));
        Assert.Equal(1, observation.Sum("nativepool.pooled"));
        Assert.Equal(16, observation.Sum("nativepool.outstanding"));
        GC.KeepAlive(firstHeld);
        GC.KeepAlive(secondHeld);
    }

    [Fact]
    public void UnnamedPoolsOfOneTypeHaveDifferentInstances()
    {
        var first = new StripedObjectPool<Version>(() => new Version(), cleanup: null, new StripedObjectPoolOptions());
        var second = new StripedObjectPool<Version>(() => new Version(), cleanup: null, new StripedObjectPoolOptions());
        Version a = first.Get();
        Version b = second.Get();
        Version c = second.Get();

        Observation observation = Observe(NativePoolMetrics.DefaultMeter, first.Name);
        first.Return(a);
        second.Return(b);
        second.Return(c);

        // Other tests' unnamed Version pools may be alive too; these two are told apart by their instance tags.
        long[] allocated = [.. observation.Measurements
            .Where(m => m.Instrument == "nativepool.allocated")
            .GroupBy(m => m.Tags[NativePoolMetrics.PoolInstanceTag])
            .Select(g => Assert.Single(g).Value)];
        Assert.Contains(1L, allocated);
        Assert.Contains(2L, allocated);
        Assert.Equal(first.Name, second.Name);
    }

    [Fact]
    public void SharedPoolsAreNamedAfterTheirType()
    {
        Assert.Equal("StripedArrayPool<Byte>.Shared", StripedArrayPool<byte>.Shared.Name);
        Assert.Equal("StripedArrayPool<Int32>", StripedArrayPool<int>.Create().Name);
        Assert.Equal("named", StripedArrayPool<int>.Create(new StripedArrayPoolOptions { Name = "named" }).Name);
    }

    [Fact]
    public void ACollectedPoolStopsReporting()
    {
        string name = "collected-" + Guid.NewGuid().ToString("N");
        CreateAndDropPool(name);

        // The registry holds pools weakly: once the pool is collected, nothing of it is measured any more.
        Finalization.WaitUntil(
            () => Observe(NativePoolMetrics.DefaultMeter, name).Measurements.Count == 0,
            () => $"{Observe(NativePoolMetrics.DefaultMeter, name).Measurements.Count} measurements of the dropped pool");
    }

    private static void CreateAndDropPool(string name)
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Name = name, TrimmingEnabled = false });
        pool.Return(pool.Rent(16));
    }

    /// <summary>Asserts the pool totals an observation summed over the pool's size classes.</summary>
    private static void AssertTotals(Observation observation, long allocated, long dropped, long trimmed, long pooled, long outstanding, long pooledBytes)
    {
        Assert.Equal(allocated, observation.Sum("nativepool.allocated"));
        Assert.Equal(dropped, observation.Sum("nativepool.dropped"));
        Assert.Equal(trimmed, observation.Sum("nativepool.trimmed"));
        Assert.Equal(pooled, observation.Sum("nativepool.pooled"));
        Assert.Equal(outstanding, observation.Sum("nativepool.outstanding"));
        Assert.Equal(pooledBytes, observation.Sum("nativepool.memory.pooled"));
    }

    private static Observation Observe(Meter meter, string poolName)
    {
        var observation = new Observation();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (ReferenceEquals(instrument.Meter, meter))
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var tagMap = new Dictionary<string, object?>();
            foreach (KeyValuePair<string, object?> tag in tags)
            {
                tagMap[tag.Key] = tag.Value;
            }

            if (Equals(tagMap.GetValueOrDefault(NativePoolMetrics.PoolNameTag), poolName))
            {
                observation.Measurements.Add(new Measured(instrument.Name, value, tagMap));
            }
        });
        listener.Start();
        listener.RecordObservableInstruments();
        return observation;
    }

    private sealed record Measured(string Instrument, long Value, Dictionary<string, object?> Tags);

    private sealed class Observation
    {
        public List<Measured> Measurements { get; } = [];

        public long Sum(string instrument) => Measurements.Where(m => m.Instrument == instrument).Sum(m => m.Value);

        public long SumWhere(string instrument, string tag, object value) =>
            Measurements.Where(m => m.Instrument == instrument && Equals(m.Tags.GetValueOrDefault(tag), value)).Sum(m => m.Value);
    }

    private sealed class TestMeterFactory : IMeterFactory
    {
        private readonly List<Meter> _meters = [];

        public Meter Create(MeterOptions options)
        {
            lock (_meters)
            {
                Meter? existing = _meters.FirstOrDefault(m => m.Name == options.Name);
                if (existing is not null)
                {
                    return existing;
                }

                var meter = new Meter(options.Name, options.Version, options.Tags, this);
                _meters.Add(meter);
                return meter;
            }
        }

        public void Dispose()
        {
            foreach (Meter meter in _meters)
            {
                meter.Dispose();
            }
        }
    }
}
