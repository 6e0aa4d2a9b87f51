namespace NativePool.Benchmarks.Reporting;

/// <summary>A goal evaluated against the results.</summary>
/// <param name="Goal">The goal.</param>
/// <param name="Status">Met, missed or not measured.</param>
/// <param name="Measured">The measured ratio text (worst cell, and a summary when the goal covers several cells).</param>
/// <param name="Where">The cell the measured ratio comes from, or why nothing was measured.</param>
public sealed record GoalResult(Goal Goal, GoalStatus Status, string Measured, string Where);
