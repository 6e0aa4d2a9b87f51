using System.Globalization;
using System.IO;
using System.Text;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The README's headline table, regenerated from an interleaved run: one row per goal, the many Rent+Return cells
/// folded into one row (the median of their medians and the worst cell with its band). Written between <see cref="Begin"/> and
/// <see cref="End"/> in README.md; a filtered run leaves the README alone (it would show only part of the goals).
/// </summary>
public static class ReadmeHeadline
{
    public const string Begin = "<!-- headline:begin -->";
    public const string End = "<!-- headline:end -->";

    /// <summary>The markers of the README's first table: the application suite (<c>--ab --apps</c>), rendered like the headline.</summary>
    public const string ApplicationsBegin = "<!-- applications:begin -->";
    public const string ApplicationsEnd = "<!-- applications:end -->";

    private const string RentReturnMarker = "] Rent+Return vs ArrayPool.Shared";

    private static readonly CultureInfo s_invariant = CultureInfo.InvariantCulture;

    /// <summary>The headline table for the results table's <paramref name="rows"/>, with the machine line.</summary>
    /// <remarks>
    /// Rendered from the rows as the results table prints them, so the headline can be checked against the shipped
    /// results table (<see cref="ShippedTextCheck"/>) with nothing but the documents.
    /// </remarks>
    public static string Render(string machineLine, int processes, IReadOnlyList<InterleavedRow> rows)
    {
        var md = new StringBuilder();
        md.AppendLine(processes > 1
            ? string.Create(s_invariant, $"Interleaved A/B run, each scenario in {processes} processes of its own, {machineLine}; ratio = ours ÷ peer, the median of the process medians with the lowest and highest process median; a goal is met when that median meets it.")
            : string.Create(s_invariant, $"Interleaved A/B run in one process, {machineLine}; ratio = ours ÷ peer, median of the rounds with the p25–p75 band; a goal is met when the p75 meets it."));
        md.AppendLine();
        md.AppendLine("| scenario | goal | ratio (band) | alloc B/op ours / peer | |");
        md.AppendLine("|---|---|---|---|---|");

        InterleavedRow[] cells = [.. rows.Where(r => r.Name.Contains(RentReturnMarker, StringComparison.Ordinal))];
        if (cells.Length != 0)
        {
            double median = Median([.. cells.Select(r => r.RatioMedian)]);
            // The worst cell by the figure its goal is judged on: the median across processes, the p75 within one.
            InterleavedRow worst = cells.MaxBy(r => processes > 1 ? r.RatioMedian : r.RatioP75)!;
            md.AppendLine(string.Create(
                s_invariant,
                $"| Rent+Return, byte/char/int × {cells.Length / 3} lengths, vs `ArrayPool<T>.Shared` | {cells[0].Goal} every cell | median of cells {median:0.00}; worst {worst.RatioMedian:0.00} ({worst.RatioP25:0.00}–{worst.RatioP75:0.00}) | {worst.OursBytes} / {worst.PeerBytes} | {(cells.Any(r => r.IsUnjudged) ? "no verdict" : Status(cells.All(r => r.IsMet)))} |"));
        }

        foreach (InterleavedRow r in rows.Except(cells))
        {
            md.AppendLine(string.Create(
                s_invariant,
                $"| {r.Name} | {r.Goal} | {r.RatioMedian:0.00} ({r.RatioP25:0.00}–{r.RatioP75:0.00}) | {r.OursBytes} / {r.PeerBytes} | {(r.IsReported ? "reported" : r.IsUnjudged ? "no verdict" : Status(r.IsMet))} |"));
        }

        return md.ToString();
    }

    /// <summary>The headline between the markers of <paramref name="readme"/>, or null when it has none.</summary>
    public static string? Extract(string readme)
    {
        int begin = readme.IndexOf(Begin, StringComparison.Ordinal);
        int end = readme.IndexOf(End, StringComparison.Ordinal);
        return begin < 0 || end < begin ? null : readme[(begin + Begin.Length)..end].Trim('\r', '\n');
    }

    /// <summary>Writes <paramref name="headline"/> between the markers of <paramref name="readmePath"/>, if it has them.</summary>
    public static void Write(string readmePath, string headline) => Write(readmePath, headline, Begin, End);

    /// <summary>Writes <paramref name="table"/> between <paramref name="begin"/> and <paramref name="end"/> in <paramref name="readmePath"/>, if it has them.</summary>
    public static void Write(string readmePath, string table, string begin, string end)
    {
        if (!File.Exists(readmePath))
        {
            return;
        }

        string readme = File.ReadAllText(readmePath);
        int from = readme.IndexOf(begin, StringComparison.Ordinal);
        int to = readme.IndexOf(end, StringComparison.Ordinal);
        if (from < 0 || to < from)
        {
            return;
        }

        File.WriteAllText(readmePath, readme[..(from + begin.Length)] + Environment.NewLine + table.TrimEnd() + Environment.NewLine + readme[to..]);
        Console.WriteLine($"Wrote the {begin} table of {readmePath}.");
    }

    private static string Status(bool met) => met ? "met" : "**missed**";

    private static double Median(double[] values)
    {
        Array.Sort(values);
        int mid = values.Length / 2;
        return values.Length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}
