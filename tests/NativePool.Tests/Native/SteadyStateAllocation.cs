using System.Runtime.CompilerServices;

namespace NativePool.Tests.Native;

/// <summary>Measures what a loop allocates on the calling thread once it is warm.</summary>
public static class SteadyStateAllocation
{
    /// <summary>
    /// Runs <paramref name="loop"/> to warm it, then three measured times, and returns the smallest number of bytes one
    /// measured run allocated on this thread. A loop that allocates per iteration allocates in every run; the runtime's
    /// one-off work on this thread (on-stack replacement, class loading while the JIT compiles) shows in one run at most.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long Measure(Action<int> loop, int iterations = 10_000)
    {
        loop(1_000);
        long least = long.MaxValue;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            loop(iterations);
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        return least;
    }
}
