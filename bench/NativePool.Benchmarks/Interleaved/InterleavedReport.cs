using System.Globalization;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>The Markdown table of an interleaved run, and the two documents it goes into.</summary>
public static class InterleavedReport
{
    public const string DocumentName = "benchmarks-interleaved.md";

    private const string MachineLabel = "**Machine:** ";

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>The machine lines, the results table and how to read it.</summary>
    public static string Render(MachineInfo machine, RoundSettings settings, string? filter, IReadOnlyList<ScenarioResult> results, IReadOnlyList<(InterleavedScenario Scenario, string Error)> failures)
    {
        var md = new StringBuilder();
        md.AppendLine(CultureInfo.InvariantCulture, $"{MachineLabel}{Escape(machine.Line)}  ");
        int processes = results.Count == 0 ? 1 : results.Max(static r => r.Processes);
        md.AppendLine(CultureInfo.InvariantCulture, $"**Run:** {machine.Date.ToString("yyyy-MM-dd HH:mm zzz", s_invariant)}, {settings.Mode} mode, {processes} {(processes == 1 ? "process" : "processes")}: {settings.Rounds} rounds of about {settings.RoundTarget.TotalMilliseconds.ToString("0.#", s_invariant)} ms per side after at least {settings.Warmup.TotalMilliseconds.ToString("0", s_invariant)} ms of warm-up per side{(filter is null ? string.Empty : $", scenarios containing `{filter}` only")}  ");
        md.AppendLine(CultureInfo.InvariantCulture, $"**Idle machine:** {Escape(machine.IdleStatement)}");
        if (machine.LoadWarning is string warning)
        {
            md.AppendLine();
            md.AppendLine("⚠ " + warning);
        }

        if (!settings.JudgesGoals)
        {
            md.AppendLine();
            md.AppendLine("⚠ Dry run: tiny rounds without warm-up that only prove every scenario runs. These numbers measure nothing.");
        }

        md.AppendLine();
        md.AppendLine(InterleavedRow.Header);
        md.AppendLine(InterleavedRow.Rule);
        foreach (InterleavedRow row in Rows(machine, settings, results))
        {
            md.AppendLine(row.ToMarkdown());
        }

        foreach ((InterleavedScenario scenario, string error) in failures)
        {
            md.AppendLine(CultureInfo.InvariantCulture, $"| {Escape(scenario.Name)} | | | | | {InterleavedRow.GoalText(scenario)} | | | failed: {Escape(error)} |");
        }

        md.AppendLine();
        md.AppendLine(processes > 1
            ? string.Create(s_invariant, $"Ratio = ours ÷ peer in ns per operation, one per round (each round times both sides back to back, the order alternating). Every scenario was measured in {processes} processes of its own (one scenario per process, the selection run {processes} times in the same order, one process at a time); a cell is the median of the {processes} process medians, and its band is the lowest and highest process median. A goal is met when that median is within it (and ours meets the allocation part, if any). ns/op and allocation are the medians over the processes of each process's median ns/op and mean allocation; allocation is the process-wide precise allocated-bytes delta around each timed batch (every thread counted).")
            : "Ratio = ours ÷ peer in ns per operation, one per round (each round times both sides back to back, the order alternating); " +
                "the band is the 25th–75th percentile of the rounds. A goal is met when the 75th percentile is within it (and ours meets the allocation part, if any). " +
                "ns/op are the medians over the rounds. Allocation is the process-wide precise allocated-bytes delta around each timed batch (every thread counted), averaged over the rounds.");
        AppendBuilds(md, results);
        return md.ToString();
    }

    /// <summary>
    /// The object scenarios' second table: the objects each side's pool built per 10^6 gets, counted over the timed
    /// batches (the scenarios with background load are left out: their load threads run for both sides at once).
    /// </summary>
    private static void AppendBuilds(StringBuilder md, IReadOnlyList<ScenarioResult> results)
    {
        ScenarioResult[] counted = [.. results.Where(static r => r.OursBuiltPerMillionGets is not null && r.PeerBuiltPerMillionGets is not null)];
        if (counted.Length == 0)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine("Objects built per 10^6 gets, counted over the timed batches (a pool exists to build rarely; the churn of eight threads per bound is in benchmarks-churn.md):");
        md.AppendLine();
        md.AppendLine("| scenario | ours built per 10^6 gets | peer built per 10^6 gets |");
        md.AppendLine("|---|---:|---:|");
        foreach (ScenarioResult r in counted)
        {
            md.AppendLine(CultureInfo.InvariantCulture, $"| {Escape(r.Scenario.Name)} | {r.OursBuiltPerMillionGets!.Value.ToString("0.##", s_invariant)} | {r.PeerBuiltPerMillionGets!.Value.ToString("0.##", s_invariant)} |");
        }
    }

    /// <summary>The rows of <paramref name="results"/> as the table prints them (no verdicts when <paramref name="machine"/> was not idle).</summary>
    public static IReadOnlyList<InterleavedRow> Rows(MachineInfo machine, RoundSettings settings, IReadOnlyList<ScenarioResult> results) =>
        [.. results.Select(r => InterleavedRow.From(r, settings.JudgesGoals, machine.IsIdle))];

    /// <summary>How many processes measured the rendered table <paramref name="markdown"/> (its "**Run:**" line says; 1 when it does not).</summary>
    public static int Processes(string markdown)
    {
        Match match = Regex.Match(markdown, @"^\*\*Run:\*\* [^\n]*?, (\d+) processes:", RegexOptions.Multiline);
        return match.Success ? int.Parse(match.Groups[1].Value, s_invariant) : 1;
    }

    /// <summary>The machine line of a rendered table (what follows its "**Machine:**" label), or null.</summary>
    public static string? MachineLine(string markdown) =>
        markdown.Split('\n').Select(l => l.TrimEnd('\r'))
            .FirstOrDefault(l => l.StartsWith(MachineLabel, StringComparison.Ordinal))?[MachineLabel.Length..].TrimEnd();

    /// <summary>Writes the table into benchmarks-interleaved.md beside <paramref name="benchmarksPath"/> and between the markers of that file.</summary>
    public static void Write(string benchmarksPath, string table)
    {
        string directory = Path.GetDirectoryName(benchmarksPath)!;
        Directory.CreateDirectory(directory);
        string own = Path.Combine(directory, DocumentName);
        File.WriteAllText(own, "# NativePool benchmarks: interleaved A/B" + Environment.NewLine + Environment.NewLine +
            "<!-- Generated by `./build.sh bench --ab`; rewritten on every run. -->" + Environment.NewLine + Environment.NewLine + table);
        string existing = File.Exists(benchmarksPath) ? File.ReadAllText(benchmarksPath) : "# NativePool benchmarks" + Environment.NewLine;
        File.WriteAllText(benchmarksPath, InterleavedSection.Splice(existing, table));
        Console.WriteLine($"Wrote {own} and the interleaved section of {benchmarksPath}.");
    }

    private static string Escape(string text) => Reporting.BenchmarksDocument.Escape(text);
}
