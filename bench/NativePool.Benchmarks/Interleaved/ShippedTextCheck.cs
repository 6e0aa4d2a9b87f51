using System.IO;
using System.Text.RegularExpressions;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// <c>--check-docs ROOT [--update-headline]</c>: checks that the shipped text of the repository at ROOT agrees with its interleaved results
/// table (docs/benchmarks-interleaved.md), the one verdict on every goal. Exit code 0 when it does, 1 with one line per
/// disagreement when it does not, 2 on a bad command line or a missing document. With <c>--update-headline</c> it first
/// rewrites the README's headline from the table (after a hand edit of either).
/// </summary>
/// <remarks>
/// <para>Three checks:</para>
/// <list type="number">
/// <item>The README's headline (between <see cref="ReadmeHeadline.Begin"/> and <see cref="ReadmeHeadline.End"/>) is
/// exactly the headline rendered from the results table.</item>
/// <item>The results section of docs/benchmarks.md is exactly the table of docs/benchmarks-interleaved.md.</item>
/// <item>No shipped sentence claims speed that the table does not show. Shipped text is README.md, every Markdown file
/// under docs/, each package's page (src/*/PACKAGE.md), and the XML documentation comments (<c>///</c>) under src/. A
/// line with a speed word (faster, quicker, outperforms, beats, cheaper than, speed-up) must carry a marker
/// <c>&lt;!-- claim: SCENARIO --&gt;</c> naming a row of the table whose 75th-percentile ratio is below 1 (ours faster
/// in at least three rounds of four); the generated blocks are exempt.</item>
/// <item>No shipped line uses a vague speed phrase that names no measurement a row could support: "cost(s) too much",
/// "as fast as", "as cheap as", "too slow", "too expensive", "blazing(ly) fast", "lightning fast" (any case). These are
/// rejected with or without a marker: a claim is written as a comparison with a peer and the row that measures it.</item>
/// </list>
/// </remarks>
public static partial class ShippedTextCheck
{
    public const string Verb = "--check-docs";

    public static bool IsRequested(IReadOnlyList<string> args) => args.Count > 0 && args[0] == Verb;

    public static int Run(IReadOnlyList<string> args)
    {
        bool update = args.Count == 3 && args[2] == "--update-headline";
        if (args.Count != 2 && !update)
        {
            Console.Error.WriteLine($"Usage: {Verb} REPOSITORY_ROOT [--update-headline]");
            return 2;
        }

        string root = Path.GetFullPath(args[1]);
        string tablePath = Path.Combine(root, "docs", InterleavedReport.DocumentName);
        if (!File.Exists(tablePath))
        {
            Console.Error.WriteLine($"{tablePath} is missing: run ./build.sh bench --ab first.");
            return 2;
        }

        if (update)
        {
            string document = File.ReadAllText(tablePath);
            ReadmeHeadline.Write(Path.Combine(root, "README.md"), ReadmeHeadline.Render(InterleavedReport.MachineLine(document) ?? "machine not recorded", InterleavedReport.Processes(document), InterleavedRow.ParseTable(document)));
        }

        List<string> problems = Check(root);
        foreach (string problem in problems)
        {
            Console.WriteLine(problem);
        }

        Console.WriteLine(problems.Count == 0 ? "Shipped text agrees with the interleaved results table." : $"{problems.Count} disagreement(s).");
        return problems.Count == 0 ? 0 : 1;
    }

    /// <summary>Every disagreement between the shipped text under <paramref name="root"/> and its results table.</summary>
    public static List<string> Check(string root)
    {
        var problems = new List<string>();
        string document = File.ReadAllText(Path.Combine(root, "docs", InterleavedReport.DocumentName));
        IReadOnlyList<InterleavedRow> rows = InterleavedRow.ParseTable(document);
        string? machine = InterleavedReport.MachineLine(document);
        if (machine is null)
        {
            problems.Add($"docs/{InterleavedReport.DocumentName}: no machine line.");
            return problems;
        }

        string readme = File.ReadAllText(Path.Combine(root, "README.md"));
        string expected = Normalize(ReadmeHeadline.Render(machine, InterleavedReport.Processes(document), rows));
        string? actual = ReadmeHeadline.Extract(readme) is string headline ? Normalize(headline) : null;
        if (actual != expected)
        {
            problems.Add("README.md: the headline is not the one the results table renders (regenerate it with ./build.sh bench --ab)." +
                Environment.NewLine + FirstDifference(expected, actual ?? string.Empty));
        }

        string benchmarks = Path.Combine(root, "docs", "benchmarks.md");
        if (File.Exists(benchmarks))
        {
            string table = Normalize(document[document.IndexOf(InterleavedRow.Header, StringComparison.Ordinal)..]);
            string? section = InterleavedSection.Extract(File.ReadAllText(benchmarks));
            if (section is null || !Normalize(section).EndsWith(table, StringComparison.Ordinal))
            {
                problems.Add($"docs/benchmarks.md: its interleaved section is not the table of docs/{InterleavedReport.DocumentName}.");
            }
        }

        foreach ((string file, int line, string text) in ShippedLines(root))
        {
            if (!SpeedWord().IsMatch(text) && !VagueSpeedPhrase().IsMatch(text))
            {
                continue;
            }

            Match vague = VagueSpeedPhrase().Match(text);
            if (vague.Success)
            {
                problems.Add($"{file}:{line}: uses the vague speed phrase '{vague.Value}', which no row of the results table can support: {text.Trim()}");
                continue;
            }

            Match claim = ClaimMarker().Match(text);
            InterleavedRow? row = claim.Success ? rows.FirstOrDefault(r => r.Name == claim.Groups["scenario"].Value.Trim()) : null;
            if (row is null)
            {
                problems.Add($"{file}:{line}: claims speed without a <!-- claim: SCENARIO --> marker naming a row of the results table: {text.Trim()}");
            }
            else if (row.RatioP75 >= 1)
            {
                problems.Add($"{file}:{line}: claims speed, but the table's '{row.Name}' has a band reaching {row.RatioP75:0.000} (not below 1): {text.Trim()}");
            }
        }

        return problems;
    }

    /// <summary>Every shipped line outside the generated blocks, with its file (relative to the root) and line number.</summary>
    private static IEnumerable<(string File, int Line, string Text)> ShippedLines(string root)
    {
        var files = new List<string> { Path.Combine(root, "README.md") };
        string docs = Path.Combine(root, "docs");
        if (Directory.Exists(docs))
        {
            files.AddRange(Directory.EnumerateFiles(docs, "*.md", SearchOption.AllDirectories)
                .Where(f => Path.GetFileName(f) != InterleavedReport.DocumentName));
        }

        string src = Path.Combine(root, "src");
        if (Directory.Exists(src))
        {
            // Each package's page (src/*/PACKAGE.md), and the XML documentation comments of the sources.
            files.AddRange(Directory.EnumerateDirectories(src).Select(project => Path.Combine(project, "PACKAGE.md")));
            files.AddRange(Directory.EnumerateFiles(src, "*.cs", SearchOption.AllDirectories)
                .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal) &&
                            !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)));
        }

        foreach (string file in files.Where(File.Exists).Order(StringComparer.Ordinal))
        {
            bool code = file.EndsWith(".cs", StringComparison.Ordinal);
            bool generated = false;
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                string text = lines[i];
                if (text.Contains(ReadmeHeadline.Begin, StringComparison.Ordinal) || text.Contains(InterleavedSection.Begin, StringComparison.Ordinal))
                {
                    generated = true;
                }
                else if (text.Contains(ReadmeHeadline.End, StringComparison.Ordinal) || text.Contains(InterleavedSection.End, StringComparison.Ordinal))
                {
                    generated = false;
                }
                else if (!generated && (!code || text.TrimStart().StartsWith("///", StringComparison.Ordinal)))
                {
                    yield return (Path.GetRelativePath(root, file), i + 1, text);
                }
            }
        }
    }

    private static string Normalize(string text) => string.Join('\n', text.Replace("\r", string.Empty, StringComparison.Ordinal).Trim('\n').Split('\n').Select(l => l.TrimEnd()));

    private static string FirstDifference(string expected, string actual)
    {
        string[] want = expected.Split('\n');
        string[] have = actual.Split('\n');
        for (int i = 0; i < Math.Max(want.Length, have.Length); i++)
        {
            string w = i < want.Length ? want[i] : "(nothing)";
            string h = i < have.Length ? have[i] : "(nothing)";
            if (w != h)
            {
                return $"  line {i + 1}: expected '{w}'{Environment.NewLine}  line {i + 1}: found    '{h}'";
            }
        }

        return "  (they differ only in line endings)";
    }

    [GeneratedRegex(@"\b(faster|quicker|outperform(s|ed)?|beats?|cheaper than|speed-?ups?)\b", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SpeedWord();

    [GeneratedRegex(@"\b(costs? too much|as fast as|as cheap as|too slow|too expensive|blazing(ly)?[- ]fast|lightning[- ]fast)\b", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex VagueSpeedPhrase();

    [GeneratedRegex(@"<!--\s*claim:(?<scenario>[^>]*?)-->", RegexOptions.CultureInvariant)]
    private static partial Regex ClaimMarker();
}
