using static NativePool.Benchmarks.Infrastructure.StreamSources;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// The stream scenarios beyond writing in 4 KiB chunks, each against RecyclableMemoryStream 4.0.1 with its default
/// options: a stream of 100 000 writes of 13 bytes (a serializer writing small fields; goal ≤ 0.60, ours allocating no more), and <c>CopyTo</c>
/// of a 1 MiB stream into a <see cref="System.IO.MemoryStream"/> that already has the room (goal ≤ 1.00).
/// </summary>
public static class StreamCopyScenarios
{
    public const int SmallWrites = 100_000;

    public const int CopyBytes = 1024 * 1024;

    public static IEnumerable<InterleavedScenario> Create()
    {
        yield return new InterleavedScenario<SmallWrites<Pooled>, SmallWrites<Recyclable>>(
            "stream: 100 000 x 13-byte writes + dispose vs RecyclableMemoryStream",
            0.60,
            AllocationGoal.OursNoMoreThanPeer,
            () => new(SmallWrites),
            () => new(SmallWrites));
        yield return new InterleavedScenario<CopyToMemory<Pooled>, CopyToMemory<Recyclable>>(
            "stream: CopyTo of 1 MiB into a MemoryStream vs RecyclableMemoryStream",
            1.00,
            () => new(CopyBytes),
            () => new(CopyBytes));
    }
}
