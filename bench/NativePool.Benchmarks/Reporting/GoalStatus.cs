namespace NativePool.Benchmarks.Reporting;

/// <summary>How a goal fared in the last results.</summary>
public enum GoalStatus
{
    /// <summary>Every cell the goal covers is within its limit.</summary>
    Met,

    /// <summary>At least one cell is over the limit (or allocates where the goal says 0 B).</summary>
    Missed,

    /// <summary>The results have no cell with both rows the goal compares (a suite or a peer did not run).</summary>
    NotMeasured,
}
