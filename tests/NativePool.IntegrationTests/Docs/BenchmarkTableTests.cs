using System.Globalization;
using System.IO;
using NativePool.Tests;

namespace NativePool.IntegrationTests.Docs;

/// <summary>
/// A measured row says one thing wherever it is shown: the README's tables agree with the generated documents they come
/// from (the applications table with docs/application-benchmarks.md, the headline with docs/benchmarks-interleaved.md),
/// the generated documents agree with each other, and no row stands in both README tables.
/// </summary>
public sealed class BenchmarkTableTests
{
    private static readonly string s_root = RepositoryRoot.Find();

    [Fact]
    public void EveryReadmeRowMatchesItsGeneratedDocumentAndNoRowStandsInBothReadmeTables()
    {
        string readme = File.ReadAllText(Path.Combine(s_root, "README.md"));
        Dictionary<string, Row> applications = ReadmeRows(Between(readme, "<!-- applications:begin -->", "<!-- applications:end -->"));
        Dictionary<string, Row> headline = ReadmeRows(Between(readme, "<!-- headline:begin -->", "<!-- headline:end -->"));
        Dictionary<string, Row> applicationDocument = DocumentRows("docs/application-benchmarks.md");
        Dictionary<string, Row> interleavedDocument = DocumentRows("docs/benchmarks-interleaved.md");

        Assert.NotEmpty(applications);
        Assert.NotEmpty(headline);
        Assert.Empty(applications.Keys.Intersect(headline.Keys));
        AssertAgree("README applications table", applications, "docs/application-benchmarks.md", applicationDocument, everyRowThere: true);
        AssertAgree("README headline", headline, "docs/benchmarks-interleaved.md", interleavedDocument, everyRowThere: false);
    }

    [Fact]
    public void TheGeneratedDocumentsAgreeOnEveryRowTheyShare()
    {
        Dictionary<string, Row> interleaved = DocumentRows("docs/benchmarks-interleaved.md");
        Dictionary<string, Row> summary = DocumentRows("docs/benchmarks.md");
        Dictionary<string, Row> applications = DocumentRows("docs/application-benchmarks.md");

        AssertAgree("docs/benchmarks.md", summary, "docs/benchmarks-interleaved.md", interleaved, everyRowThere: false);
        AssertAgree("docs/application-benchmarks.md", applications, "docs/benchmarks-interleaved.md", interleaved, everyRowThere: false);
    }

    [Fact]
    public void ADisagreeingRowIsFound()
    {
        Dictionary<string, Row> readme = ReadmeRows("| x | ≤ 1.00 | 0.87 (0.85–0.89) | 0 / 0 | met |\n");
        Dictionary<string, Row> document = DocumentRows(["| x | 1 | 1 | 0.965 | 0.897–0.982 | ≤ 1.00 | 0 | 0 | ✅ met |"]);

        Assert.ThrowsAny<Exception>(() => AssertAgree("a", readme, "b", document, everyRowThere: true));
    }

    /// <summary>A row as both kinds of table can say it: the ratio and band to two decimals, and the verdict.</summary>
    private sealed record Row(string Ratio, string Verdict);

    private static void AssertAgree(string name, Dictionary<string, Row> rows, string otherName, Dictionary<string, Row> other, bool everyRowThere)
    {
        foreach ((string scenario, Row row) in rows)
        {
            if (!other.TryGetValue(scenario, out Row? source))
            {
                Assert.False(everyRowThere, $"{name} shows '{scenario}', which {otherName} does not.");
                continue;
            }

            Assert.True(row == source, $"'{scenario}': {name} says {row}, {otherName} says {source}.");
        }
    }

    private static string Between(string text, string begin, string end)
    {
        int start = text.IndexOf(begin, StringComparison.Ordinal);
        int stop = text.IndexOf(end, StringComparison.Ordinal);
        Assert.True(start >= 0 && stop > start, $"The markers {begin} and {end} are missing.");
        return text[start..stop];
    }

    /// <summary>Rows of the README's form: scenario | goal | ratio (band) | allocation | verdict.</summary>
    private static Dictionary<string, Row> ReadmeRows(string region)
    {
        var rows = new Dictionary<string, Row>(StringComparer.Ordinal);
        foreach (string[] cells in TableRows(region.Split('\n')))
        {
            if (cells.Length == 5 && cells[0] != "scenario" && cells[2].Contains('(', StringComparison.Ordinal))
            {
                rows[cells[0]] = new Row(cells[2], Verdict(cells[4]));
            }
        }

        return rows;
    }

    private static Dictionary<string, Row> DocumentRows(string relativePath) =>
        DocumentRows(File.ReadAllLines(Path.Combine(s_root, relativePath)));

    /// <summary>Rows of the generated form: scenario | ours ns | peer ns | ratio | band | goal | ours B | peer B | verdict.</summary>
    private static Dictionary<string, Row> DocumentRows(string[] lines)
    {
        var rows = new Dictionary<string, Row>(StringComparer.Ordinal);
        foreach (string[] cells in TableRows(lines))
        {
            if (cells.Length == 9 && TwoDecimals(cells[3]) is string ratio && cells[4].Split('–') is [string low, string high])
            {
                rows[System.Net.WebUtility.HtmlDecode(cells[0])] = new Row($"{ratio} ({TwoDecimals(low)}–{TwoDecimals(high)})", Verdict(cells[8]));
            }
        }

        return rows;
    }

    private static IEnumerable<string[]> TableRows(IEnumerable<string> lines) =>
        lines.Where(line => line.StartsWith("| ", StringComparison.Ordinal) && !line.StartsWith("|---", StringComparison.Ordinal))
            .Select(line => line.Trim().Trim('|').Split(" | ").Select(cell => cell.Trim()).ToArray());

    private static string? TwoDecimals(string cell) =>
        double.TryParse(cell, NumberStyles.Float, CultureInfo.InvariantCulture, out double value)
            ? value.ToString("0.00", CultureInfo.InvariantCulture)
            : null;

    private static string Verdict(string cell) =>
        cell.Contains("missed", StringComparison.Ordinal) ? "missed"
        : cell.Contains("reported", StringComparison.Ordinal) ? "reported"
        : cell.Contains("met", StringComparison.Ordinal) ? "met"
        : cell.Trim('*', ' ');
}
