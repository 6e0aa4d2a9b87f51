using System.IO;
using NativePool.Benchmarks.Infrastructure;
using static NativePool.Benchmarks.Infrastructure.StreamSources;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// A stream's whole life: get it, write 1 KiB, 64 KiB, 1 MiB or 16 MiB in 4 KiB writes, dispose it.
/// <see cref="PooledStreamManager.Shared"/> against RecyclableMemoryStream 4.0.1 with its default options (goal ≤ 0.80,
/// ours allocating no more) and against a new <see cref="MemoryStream"/> (goal ≤ 0.50, ours allocating nothing).
/// One operation is one stream.
/// </summary>
public static class StreamWriteScenarios
{
    public static readonly int[] Sizes = [1024, 64 * 1024, 1024 * 1024, 16 * 1024 * 1024];

    public static IEnumerable<InterleavedScenario> Create()
    {
        foreach (int size in Sizes)
        {
            yield return new InterleavedScenario<WriteAndDispose<Pooled>, WriteAndDispose<Recyclable>>(
                $"stream: write {Label(size)} in 4 KiB + dispose vs RecyclableMemoryStream",
                0.80,
                AllocationGoal.OursNoMoreThanPeer,
                () => new(size),
                () => new(size));
        }

        foreach (int size in Sizes)
        {
            yield return new InterleavedScenario<WriteAndDispose<Pooled>, WriteAndDispose<Plain>>(
                $"stream: write {Label(size)} in 4 KiB + dispose vs MemoryStream",
                0.50,
                AllocationGoal.OursAllocatesNothing,
                () => new(size),
                () => new(size));
        }
    }

    public static string Label(int size) => size >= 1024 * 1024 ? $"{size >> 20} MiB" : $"{size >> 10} KiB";
}
