using System.Globalization;

namespace NativePool.Benchmarks.Reporting;

/// <summary>
/// One row of issue 5's goals table: ours ÷ a peer, mean time against mean time in the same run, in every cell (suite and
/// parameter combination) the goal covers, at most <see cref="Limit"/>. The measured value is the worst cell's ratio.
/// </summary>
public sealed class Goal
{
    public required string Scenario { get; init; }

    public required string Peer { get; init; }

    /// <summary>The goal as the issue states it.</summary>
    public required string Target { get; init; }

    /// <summary>The largest acceptable ratio.</summary>
    public required double Limit { get; init; }

    /// <summary>Whether our rows must also allocate 0 B.</summary>
    public bool ZeroAllocation { get; init; }

    /// <summary>A ratio the goal aims at below the limit (reported, not required).</summary>
    public double? Aim { get; init; }

    /// <summary>Selects the suites (table keys) the goal covers.</summary>
    public required Func<string, bool> Suites { get; init; }

    /// <summary>Selects the cells (by one of their rows) the goal covers; all when null.</summary>
    public Func<ResultRow, bool>? Cells { get; init; }

    /// <summary>Our row's label.</summary>
    public required string Ours { get; init; }

    /// <summary>The peer row's label.</summary>
    public required string Against { get; init; }

    /// <summary>What to say when no cell has both rows.</summary>
    public required string MissingReason { get; init; }

    public GoalResult Evaluate(IReadOnlyDictionary<string, ResultTable> tables, int cores)
    {
        var cells = new List<(double Ratio, double? Allocated, string Where, bool Oversubscribed)>();
        foreach (ResultTable table in tables.Values.Where(t => Suites(t.Key)).OrderBy(t => SuiteCatalog.Order(t.Key)))
        {
            foreach (IGrouping<string, ResultRow> group in table.Groups())
            {
                ResultRow? ours = group.FirstOrDefault(r => r.Method == Ours);
                ResultRow? peer = group.FirstOrDefault(r => r.Method == Against);
                if (ours?.MeanNs is not double oursMean || peer?.MeanNs is not double peerMean || peerMean <= 0 || (Cells is not null && !Cells(ours)))
                {
                    continue;
                }

                bool oversubscribed = ours.ThreadCount > cores;
                string where = SuiteCatalog.Find(table.Key).Title + (group.Key.Length > 0 ? $", {group.Key}" : string.Empty);
                cells.Add((oursMean / peerMean, ours.AllocatedBytes, where, oversubscribed));
            }
        }

        if (cells.Count == 0)
        {
            return new GoalResult(this, GoalStatus.NotMeasured, "—", MissingReason);
        }

        var worst = cells.MaxBy(c => c.Ratio);
        double maxAllocated = cells.Max(c => c.Allocated ?? 0);
        bool met = worst.Ratio <= Limit && (!ZeroAllocation || maxAllocated == 0);

        var measured = new List<string> { Format(worst.Ratio) };
        if (cells.Count > 1)
        {
            double[] sorted = cells.Select(c => c.Ratio).Order().ToArray();
            measured.Add($"worst of {cells.Count} cells; median {Format(sorted[sorted.Length / 2])}");
            if (cells.Any(c => c.Oversubscribed) && cells.Any(c => !c.Oversubscribed))
            {
                measured.Add($"worst up to {cores} threads {Format(cells.Where(c => !c.Oversubscribed).Max(c => c.Ratio))}");
            }

            if (Aim is double aim)
            {
                measured.Add($"aim {Format(aim)} reached in {cells.Count(c => c.Ratio <= aim)} of {cells.Count}");
            }
        }

        if (ZeroAllocation)
        {
            measured.Add(maxAllocated == 0 ? "0 B" : $"allocates up to {maxAllocated.ToString("N0", CultureInfo.InvariantCulture)} B");
        }

        string whereText = worst.Where + (worst.Oversubscribed ? $" (oversubscribed: more threads than the {cores} cores)" : string.Empty);
        return new GoalResult(this, met ? GoalStatus.Met : GoalStatus.Missed, string.Join("; ", measured), whereText);
    }

    private static string Format(double ratio) => ratio.ToString("0.00", CultureInfo.InvariantCulture);
}
