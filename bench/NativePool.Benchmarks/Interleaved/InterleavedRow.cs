using System.Globalization;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// One row of the interleaved results table, as printed: the runner renders its results through it, and the shipped
/// text check (<see cref="ShippedTextCheck"/>) reads the printed table back through it, so both see the same figures.
/// </summary>
public sealed record InterleavedRow(
    string Name,
    string OursNs,
    string PeerNs,
    double RatioMedian,
    double RatioP25,
    double RatioP75,
    string Goal,
    string OursBytes,
    string PeerBytes,
    string Status)
{
    public const string Header = "| scenario | ours ns/op | peer ns/op | ratio median | band | goal | alloc B/op ours | alloc B/op peer | met/missed |";
    public const string Rule = "|---|---:|---:|---:|---:|---|---:|---:|---|";

    public const string MetStatus = "✅ met";
    public const string MissedStatus = "❌ missed";
    public const string ReportedStatus = "— (reported)";
    public const string DryStatus = "— (dry)";
    public const string NotIdleStatus = "— (not idle: no verdict)";

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>Whether the row's goal is met (false for missed, reported and dry rows).</summary>
    public bool IsMet => Status == MetStatus;

    /// <summary>Whether the row has no goal: its figure is reported, not judged.</summary>
    public bool IsReported => Status == ReportedStatus;

    /// <summary>Whether the row's goal was not judged: a dry run, or a machine that was not idle.</summary>
    public bool IsUnjudged => Status is DryStatus or NotIdleStatus;

    /// <summary>
    /// The row of <paramref name="result"/>; <paramref name="judgesGoals"/> is false for a dry run, <paramref name="idle"/>
    /// false when the machine was not idle (then no goal is judged either).
    /// </summary>
    public static InterleavedRow From(ScenarioResult result, bool judgesGoals, bool idle = true)
    {
        InterleavedScenario scenario = result.Scenario;
        string status = !judgesGoals ? DryStatus
            : IsReportedGoal(scenario) ? ReportedStatus
            : !idle ? NotIdleStatus
            : result.Met ? MetStatus : MissedStatus;
        return new InterleavedRow(
            scenario.Name,
            Ns(result.OursNsPerOp),
            Ns(result.PeerNsPerOp),
            Round(result.RatioMedian),
            Round(result.RatioP25),
            Round(result.RatioP75),
            GoalText(scenario),
            Bytes(result.OursBytesPerOp),
            Bytes(result.PeerBytesPerOp),
            status);
    }

    /// <summary>The goal as the tables print it: "≤ 0.75", with the allocation part, or "reported".</summary>
    public static string GoalText(InterleavedScenario scenario) => IsReportedGoal(scenario) ? "reported" : scenario.AllocationGoal switch
    {
        AllocationGoal.OursAllocatesNothing => string.Create(s_invariant, $"≤ {scenario.Goal:0.00}, ours 0 B"),
        AllocationGoal.OursNoMoreThanPeer => string.Create(s_invariant, $"≤ {scenario.Goal:0.00}, ours B ≤ peer B"),
        _ => string.Create(s_invariant, $"≤ {scenario.Goal:0.00}"),
    };

    /// <summary>A scenario with no goal (an infinite one): its figure is reported, not judged.</summary>
    public static bool IsReportedGoal(InterleavedScenario scenario) => double.IsPositiveInfinity(scenario.Goal);

    /// <summary>The row as a Markdown table line.</summary>
    public string ToMarkdown() => string.Create(
        s_invariant,
        $"| {Escape(Name)} | {OursNs} | {PeerNs} | {RatioMedian:0.000} | {RatioP25:0.000}–{RatioP75:0.000} | {Goal} | {OursBytes} | {PeerBytes} | {Status} |");

    /// <summary>The measured rows of the results table in <paramref name="markdown"/> (failed rows, which have no figures, are skipped).</summary>
    /// <exception cref="FormatException">The document has no results table, or a row's figures do not parse.</exception>
    public static IReadOnlyList<InterleavedRow> ParseTable(string markdown)
    {
        string[] lines = markdown.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        int header = Array.IndexOf(lines, Header);
        if (header < 0)
        {
            throw new FormatException("No interleaved results table (its header line was not found).");
        }

        var rows = new List<InterleavedRow>();
        for (int i = header + 2; i < lines.Length && lines[i].StartsWith('|'); i++)
        {
            string[] cells = [.. lines[i].Trim('|').Split(" | ").Select(c => c.Trim())];
            if (cells.Length != 9)
            {
                throw new FormatException($"Row {i + 1} has {cells.Length} cells, not 9: {lines[i]}");
            }

            if (cells[3].Length == 0)
            {
                continue; // a failed scenario: no figures
            }

            string[] band = cells[4].Split('–');
            rows.Add(new InterleavedRow(
                Unescape(cells[0]), cells[1], cells[2], Number(cells[3]), Number(band[0]), Number(band[^1]), cells[5], cells[6], cells[7], cells[8]));
        }

        return rows;
    }

    private static double Number(string text) => double.Parse(text, NumberStyles.Float, s_invariant);

    // The table prints three decimals; rounding here makes a row read back from the document equal the row rendered.
    private static double Round(double value) => Math.Round(value, 3, MidpointRounding.AwayFromZero);

    private static string Ns(double ns) => ns switch
    {
        < 10 => ns.ToString("0.00", s_invariant),
        < 1_000 => ns.ToString("0.0", s_invariant),
        _ => ns.ToString("N0", s_invariant),
    };

    private static string Bytes(double bytes) => bytes < 10 ? bytes.ToString("0.#", s_invariant) : bytes.ToString("N0", s_invariant);

    private static string Escape(string text) => Reporting.BenchmarksDocument.Escape(text);

    private static string Unescape(string text) => text
        .Replace("\\|", "|", StringComparison.Ordinal)
        .Replace("&gt;", ">", StringComparison.Ordinal)
        .Replace("&lt;", "<", StringComparison.Ordinal)
        .Replace("&amp;", "&", StringComparison.Ordinal);
}
