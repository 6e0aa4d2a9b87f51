namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// Copies between pooled buffers of every pair of size classes from 4 KiB to 1 MiB: one row per source class, whose
/// operation rents the source, then for every class at least as large rents a destination, copies the source into it
/// and returns it. Where the pool places its arrays decides this row (a copy between two buffers at a slow distance
/// modulo the page runs many times slower on some processors), not its rent and return. Ours is
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c>, the peer <c>ArrayPool&lt;byte&gt;.Shared</c>. Goal ≤ 1.00. Floor rows, without a goal,
/// copy from 32 KiB and 64 KiB through <see cref="HeldArrayPool"/>: our arrays at no pool cost.
/// </summary>
public static class PooledCopyScenarios
{
    public const int SmallestClass = 4 * 1024;
    public const int LargestClass = 1024 * 1024;

    public static IEnumerable<InterleavedScenario> Create()
    {
        for (int source = SmallestClass; source <= LargestClass; source *= 2)
        {
            int length = source;
            yield return new InterleavedScenario<Copy<Striped>, Copy<Bcl>>(
                $"app: copy a pooled {Format(length)} into pooled buffers of every class up to 1 MiB, vs ArrayPool.Shared",
                1.00,
                AllocationGoal.OursNoMoreThanPeer,
                () => new(length),
                () => new(length));
        }

        foreach (int length in (int[])[32 * 1024, 64 * 1024])
        {
            yield return new InterleavedScenario<Copy<Held>, Copy<Bcl>>(
                $"app: copy a pooled {Format(length)} into pooled buffers of every class up to 1 MiB through a pool that costs nothing, holding our arrays (floor), vs ArrayPool.Shared",
                double.PositiveInfinity,
                AllocationGoal.OursNoMoreThanPeer,
                () => new(length),
                () => new(length));
        }
    }

    private static string Format(int bytes) => bytes >= 1024 * 1024 ? $"{bytes / (1024 * 1024)} MiB" : $"{bytes / 1024} KiB";

    private readonly struct Copy<TPool>(int length) : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                byte[] source = pool.Rent(length);
                for (int destination = length; destination <= LargestClass; destination *= 2)
                {
                    byte[] target = pool.Rent(destination);
                    source.AsSpan(0, length).CopyTo(target);
                    pool.Return(target);
                }

                pool.Return(source);
            }
        }
    }
}
