namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// Parameter sets. The full sets are the published benchmarks' own; <c>--quick</c> (environment variable <see cref="QuickVariable"/> = 1,
/// inherited by the benchmark processes) keeps a few values of each so the dry job in <c>./build.sh test</c> stays short.
/// </summary>
public static class BenchParams
{
    /// <summary>The environment variable that selects the reduced sets.</summary>
    public const string QuickVariable = "NATIVEPOOL_BENCH_QUICK";

    /// <summary>Whether the reduced sets are in effect.</summary>
    public static bool Quick => Environment.GetEnvironmentVariable(QuickVariable) == "1";

    /// <summary><paramref name="full"/>, or <paramref name="quick"/> in quick mode.</summary>
    public static IEnumerable<int> Select(int[] full, int[] quick) => Quick ? quick : full;
}
