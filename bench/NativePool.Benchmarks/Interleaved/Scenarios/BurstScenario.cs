using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// A burst: rent 1 024 arrays of 4 KiB on one thread, then return them all; one operation is one whole burst.
/// <c>ArrayPool&lt;byte&gt;.Shared</c> keeps a bounded number per size and core, so most of a burst is allocated and
/// dropped each time; a pool whose retention covers the burst allocates nothing in steady state. Goal ≤ 0.20, ours 0 B.
/// The BenchmarkDotNet burst suite runs the same <see cref="Work{TPool}"/>.
/// </summary>
public static class BurstScenario
{
    public const int Count = 1024;
    public const int Size = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Work<StripedBytes>, Work<SharedBytes>>(
            "burst 1 024 × byte[4096] vs ArrayPool.Shared",
            0.20,
            AllocationGoal.OursAllocatesNothing,
            () => new Work<StripedBytes>(new byte[Count][]),
            () => new Work<SharedBytes>(new byte[Count][]));

    /// <summary>Bursts of <see cref="Count"/> rents of <see cref="Size"/> bytes, then as many returns, on <typeparamref name="TPool"/>.</summary>
    public readonly struct Work<TPool>(byte[][] held) : IOperation
        where TPool : struct, IBytePool
    {
        public void Run(int count)
        {
            TPool pool = default;
            for (int burst = 0; burst < count; burst++)
            {
                for (int i = 0; i < held.Length; i++)
                {
                    held[i] = pool.Rent(Size);
                }

                for (int i = 0; i < held.Length; i++)
                {
                    pool.Release(held[i]);
                }
            }
        }
    }
}
