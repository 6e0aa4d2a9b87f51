namespace NativePool.Benchmarks.Interleaved;

/// <summary>One goal: ours against one peer in one scenario, with the ratio (ours ÷ peer) the goal allows.</summary>
public abstract class InterleavedScenario
{
    protected InterleavedScenario(string name, double goal, AllocationGoal allocationGoal)
    {
        Name = name;
        Goal = goal;
        AllocationGoal = allocationGoal;
    }

    /// <summary>The row label: what is measured and against which peer.</summary>
    public string Name { get; }

    /// <summary>The largest ratio (ours ÷ peer, ns per operation) that meets the goal.</summary>
    public double Goal { get; }

    /// <summary>The allocation part of the goal, if any.</summary>
    public AllocationGoal AllocationGoal { get; }

    /// <summary>Sets both sides up, measures them with <paramref name="settings"/> and tears them down.</summary>
    public abstract ScenarioResult Measure(RoundSettings settings);
}
