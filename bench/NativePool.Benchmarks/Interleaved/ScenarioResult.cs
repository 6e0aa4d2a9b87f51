namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// What the rounds of one scenario measured: medians of ns per operation, the median and interquartile band of the
/// per-round ratios (ours ÷ peer), the mean bytes allocated per operation by each side, and for object pools the objects
/// each side's pool built per 10^6 gets over the rounds.
/// </summary>
public sealed record ScenarioResult(
    InterleavedScenario Scenario,
    double OursNsPerOp,
    double PeerNsPerOp,
    double RatioMedian,
    double RatioP25,
    double RatioP75,
    double OursBytesPerOp,
    double PeerBytesPerOp,
    int Rounds,
    double? OursBuiltPerMillionGets = null,
    double? PeerBuiltPerMillionGets = null,
    int Processes = 1)
{
    /// <summary>Allocation per operation below this counts as none (the table shows it rounded to whole bytes).</summary>
    public const double ZeroBytes = 0.5;

    /// <summary>Whether the allocation part of the goal, if any, is met.</summary>
    public bool AllocationMet => Scenario.AllocationGoal switch
    {
        AllocationGoal.OursAllocatesNothing => OursBytesPerOp < ZeroBytes,
        AllocationGoal.OursNoMoreThanPeer => OursBytesPerOp < PeerBytesPerOp + ZeroBytes,
        _ => true,
    };

    /// <summary>
    /// One process: the goal is met when three rounds in four (the p75 of the ratio) meet it. Several processes: when the
    /// median of the process medians meets it (the band is then the lowest and highest process median). The allocation
    /// part must be met too.
    /// </summary>
    public bool Met => (Processes > 1 ? RatioMedian : RatioP75) <= Scenario.Goal && AllocationMet;
}
