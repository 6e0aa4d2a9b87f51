namespace NativePool.Benchmarks.Interleaved;

/// <summary>How long each side warms up, how many rounds are measured and how long a round lasts.</summary>
/// <param name="Rounds">Measured rounds; each times ours and the peer once, in alternating order.</param>
/// <param name="Warmup">Minimum warm-up time per side (tiered JIT reaches tier 1 well within 300 ms).</param>
/// <param name="MinimumWarmupCalls">Minimum calls of the operation during warm-up (tier-up needs 30 calls of a method).</param>
/// <param name="RoundTarget">The time one side's round is sized to by calibration.</param>
/// <param name="Mode">The name of the mode, printed with the results.</param>
public sealed record RoundSettings(int Rounds, TimeSpan Warmup, int MinimumWarmupCalls, TimeSpan RoundTarget, string Mode)
{
    /// <summary>The measurement that judges goals: 31 rounds of about 10 ms per side after 500 ms of warm-up.</summary>
    public static RoundSettings Default { get; } = new(31, TimeSpan.FromMilliseconds(500), 50, TimeSpan.FromMilliseconds(10), "default");

    /// <summary>A shorter measurement for a sanity check: 15 rounds of about 5 ms after 300 ms of warm-up.</summary>
    public static RoundSettings Quick { get; } = new(15, TimeSpan.FromMilliseconds(300), 40, TimeSpan.FromMilliseconds(5), "quick");

    /// <summary>Proves every scenario runs: a few tiny rounds, no real warm-up. Its numbers mean nothing.</summary>
    public static RoundSettings Dry { get; } = new(3, TimeSpan.FromMilliseconds(2), 2, TimeSpan.FromMilliseconds(0.2), "dry");

    /// <summary>Whether the numbers are a measurement (goals are judged) rather than a dry run.</summary>
    public bool JudgesGoals => Mode != Dry.Mode;
}
