using System.Text;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The interleaved results' place in docs/benchmarks.md: a heading, a paragraph saying how goals are judged, and the
/// table between <see cref="Begin"/> and <see cref="End"/>. The A/B runner replaces what is between the markers; the
/// BenchmarkDotNet report generator carries it over when it rewrites the rest of the document.
/// </summary>
public static class InterleavedSection
{
    public const string Begin = "<!-- interleaved:begin -->";
    public const string End = "<!-- interleaved:end -->";

    public const string Heading = "## Goals judged by the interleaved A/B method";

    public const string Paragraph =
        "Goals are judged by the interleaved A/B runner (`./build.sh bench --ab`; method in [benchmarking.md](benchmarking.md)): " +
        "ours and the peer run in alternating rounds in one process, and a goal is met when the 75th percentile of the " +
        "per-round ratio (ours ÷ peer) meets it. The BenchmarkDotNet tables below are for publication and comparison with " +
        "other libraries' published numbers; their short jobs are too noisy on a 2-core machine to judge goals by.";

    public const string Placeholder = "No interleaved results yet: produced by `./build.sh bench --ab` (see benchmarks-interleaved.md).";

    /// <summary>Appends the whole section, with <paramref name="content"/> (or the placeholder) between the markers.</summary>
    public static void Render(StringBuilder md, string? content)
    {
        md.AppendLine(Heading);
        md.AppendLine();
        md.AppendLine(Paragraph);
        md.AppendLine();
        md.AppendLine(Begin);
        md.AppendLine(content ?? Placeholder);
        md.AppendLine(End);
        md.AppendLine();
    }

    /// <summary>What is between the markers of <paramref name="document"/>, or null when it has none.</summary>
    public static string? Extract(string? document)
    {
        if (document is null)
        {
            return null;
        }

        int begin = document.IndexOf(Begin, StringComparison.Ordinal);
        int end = document.IndexOf(End, StringComparison.Ordinal);
        return begin < 0 || end < begin ? null : document[(begin + Begin.Length)..end].Trim('\r', '\n');
    }

    /// <summary>
    /// <paramref name="document"/> with <paramref name="content"/> between its markers; a document without them gets
    /// the whole section appended.
    /// </summary>
    public static string Splice(string document, string content)
    {
        int begin = document.IndexOf(Begin, StringComparison.Ordinal);
        int end = document.IndexOf(End, StringComparison.Ordinal);
        if (begin < 0 || end < begin)
        {
            var md = new StringBuilder(document.TrimEnd('\r', '\n'));
            md.AppendLine();
            md.AppendLine();
            Render(md, content);
            return md.ToString();
        }

        return document[..(begin + Begin.Length)] + Environment.NewLine + content.Trim('\r', '\n') + Environment.NewLine + document[end..];
    }
}
