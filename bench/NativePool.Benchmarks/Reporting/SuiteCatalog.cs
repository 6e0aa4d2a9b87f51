namespace NativePool.Benchmarks.Reporting;

/// <summary>Where each benchmark class goes in the results document: its section, its title and a one-line description.</summary>
/// <remarks>A class missing here still appears, under "Other", titled by its name: new suites never vanish from the document.</remarks>
public static class SuiteCatalog
{
    public const string BuffersSection = "Buffers — Rent and Return (Test_BufferPools)";
    public const string ObjectsSection = "Objects — aspnetcore's ObjectPool micro-benchmarks";
    public const string ContentionSection = "Contention — Tedd.ObjectPool's benchmark";
    public const string OursSection = "Our scenarios";
    public const string StreamsSection = "Streams and buffer writers";
    public const string OtherSection = "Other";

    /// <summary>The sections in document order.</summary>
    public static readonly IReadOnlyList<string> Sections = [BuffersSection, ObjectsSection, ContentionSection, OursSection, StreamsSection, OtherSection];

    private static readonly SuiteInfo[] s_suites =
    [
        new("Buffers.BufferRentReturnBenchmarks_Byte_", BuffersSection, "byte", "Rent + Return of Length bytes on one thread."),
        new("Buffers.BufferRentReturnBenchmarks_Char_", BuffersSection, "char", "Rent + Return of Length chars on one thread."),
        new("Buffers.BufferRentReturnBenchmarks_Int32_", BuffersSection, "int", "Rent + Return of Length ints on one thread."),
        new("Buffers.BufferRentReturnBenchmarks_Object_", BuffersSection, "object", "Rent + Return of Length object references on one thread (our pool clears reference arrays it keeps; ArrayPool.Shared does not unless asked)."),
        new("Objects.GetReturnSingleBenchmarks", ObjectsSection, "GetReturnSingle", "One Get + Return on one thread; pool of 8, prefilled."),
        new("Objects.GetReturnMultiBenchmarks", ObjectsSection, "GetReturnMulti", "One Get → work (33 Random.Next) → Return while ThreadCount − 1 background threads do the same; pool of 8."),
        new("Objects.DrainRefillSingleBenchmarks", ObjectsSection, "DrainRefillSingle", "Get Count objects, then Return them all, on one thread; pool of Count, prefilled."),
        new("Objects.DrainRefillMultiBenchmarks", ObjectsSection, "DrainRefillMulti", "Each of ThreadCount threads drains and refills Count / ThreadCount − 1 objects with work on each; the benchmark thread's round is measured."),
        new("Contention.ContentionBenchmarks", ContentionSection, "Parallel Get/touch/Return", "One Parallel.For of Threads bodies × 1 000 Get → touch → Return of byte[256]; pool of 64. Held = 4: each body holds 4 arrays at once. Tedd-style is our re-creation of Tedd.ObjectPool from its source; for scale, the real Tedd.ObjectPool 2.0 measured against Microsoft's pool on this machine (short job, Held = 1): 10.5 vs 106 µs at 2 threads, 19 vs 210 at 4, 38 vs 457 at 8, 65 vs 887 at 16, 158 vs 1 820 at 32."),
        new("Contention.TeddPublishedShapeBenchmarks", ContentionSection, "Tedd's published shape: each pool called directly", "The same work in the shape Tedd.ObjectPool's own benchmark has: one Parallel.For of Threads bodies, each calling its pool directly in a loop of its own (no shared work method or adapter), 1 000 gets per body, Held at once; ours built from a factory as Tedd's is. The Tedd-style pool is the baseline."),
        new("Ours.BurstBenchmarks", OursSection, "Burst", "Rent 1 024 × 4 KiB, then return them all, on one thread."),
        new("Ours.ProducerConsumerBenchmarks", OursSection, "Producer/consumer", "Rent 4 KiB on the benchmark thread, return on a consumer through a bounded channel; time per array."),
        new("Ours.FloorBenchmarks", OursSection, "Floor", "Rent(4096) + Return against a bare [ThreadStatic] slot swap, the least a pool can do."),
        new("Ours.StripePaddingBenchmarks", OursSection, "Padded vs unpadded stripes", "Each thread pops and pushes on its own stripe; unpadded stripes share cache lines. Time per pop + push of one thread."),
        new("Ours.CreateInstancesBenchmarks", OursSection, "Create() instances", "Rent + Return on an independent StripedArrayPool.Create() instance vs Shared vs the BCL's ArrayPool.Create()."),
        new("MemoryPoolRentDisposeBenchmarks", OursSection, "MemoryPool Rent + Dispose (byte)", "Rent, read Memory, Dispose on one thread: MemoryPool<byte>.Shared (an owner object per rent) vs our pooled pinned owners and our struct lease."),
        new("Streams.StreamWriteBenchmarks", StreamsSection, "Stream write + dispose", "Get a stream, write Bytes in 4 KiB writes, dispose: RecyclableMemoryStream 4.0.1 (default options) vs MemoryStream vs PooledStream."),
        new("Streams.ReadOnlySequenceBenchmarks", StreamsSection, "GetReadOnlySequence + read back", "GetReadOnlySequence of a 1 MiB stream and a read of every segment: RecyclableMemoryStream 4.0.1 vs PooledStream."),
        new("Streams.JsonSerializeBenchmarks", StreamsSection, "STJ into a pooled IBufferWriter", "JsonSerializer.Serialize of a 10 KiB order graph through Utf8JsonWriter: ArrayPoolBufferWriter over ArrayPool.Shared vs PooledBufferWriter."),
        new("Streams.ParallelStreamsBenchmarks", StreamsSection, "4 threads × stream write + dispose", "Four threads each write (64 KiB in 4 KiB writes) and dispose 16 streams of one manager: RecyclableMemoryStream 4.0.1 vs PooledStream."),
        new("NativeBlockRentReturnBenchmarks", OursSection, "Native blocks", "One aligned native block lease + dispose vs our managed array pool of the same size, and vs a bare NativeMemory.AlignedAlloc + AlignedFree (128-byte alignment)."),
    ];

    /// <summary>The suite of a table key (a synthetic "Other" entry for unknown keys).</summary>
    public static SuiteInfo Find(string key) =>
        s_suites.FirstOrDefault(s => s.Key == key) ?? new SuiteInfo(key, OtherSection, key, string.Empty);

    /// <summary>The position of a known suite in the document (unknown ones go last, by name).</summary>
    public static int Order(string key)
    {
        int index = Array.FindIndex(s_suites, s => s.Key == key);
        return index >= 0 ? index : s_suites.Length;
    }
}
