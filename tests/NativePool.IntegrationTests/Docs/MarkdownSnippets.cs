using System.IO;
using System.Text.RegularExpressions;

namespace NativePool.IntegrationTests.Docs;

/// <summary>What the test does with a C# block.</summary>
internal enum SnippetKind
{
    /// <summary>Compiled and run (the default).</summary>
    Run,

    /// <summary>Compiled, not run: marked <c>&lt;!-- snippet: compile-only: reason --&gt;</c>.</summary>
    CompileOnly,

    /// <summary>Parsed, not compiled: marked <c>&lt;!-- snippet: fragment: reason --&gt;</c>.</summary>
    Fragment,
}

/// <summary>A C# block of the documentation.</summary>
/// <param name="Location">"file:line" of the opening fence, the file relative to the repository root.</param>
/// <param name="File">The file, relative to the repository root.</param>
/// <param name="FirstLine">The file's line number of the block's first line of code.</param>
/// <param name="Code">The code.</param>
/// <param name="Kind">What the test does with it.</param>
/// <param name="ExpectedOutput">What it must print (the <c>&lt;!-- snippet: output --&gt;</c> block after it), or null.</param>
internal sealed record Snippet(string Location, string File, int FirstLine, string Code, SnippetKind Kind, string? ExpectedOutput);

/// <summary>
/// Reads the fenced blocks of the repository's Markdown and the <c>&lt;!-- snippet: ... --&gt;</c> markers on the line
/// above them, as CONTRIBUTING.md ("Code in the documentation") describes, and lists every place that breaks the
/// convention (a fence with no language, a marker that is unknown, lacks its reason or marks nothing).
/// </summary>
internal static partial class MarkdownSnippets
{
    private const string CompileOnly = "compile-only";
    private const string Fragment = "fragment";
    private const string Output = "output";

    /// <summary>The Markdown files the test reads: the root's, docs/ and each project's under src/ (PACKAGE.md).</summary>
    public static IEnumerable<string> Files(string root) =>
        Directory.GetFiles(root, "*.md")
            .Concat(Directory.GetFiles(Path.Combine(root, "docs"), "*.md"))
            .Concat(Directory.GetDirectories(Path.Combine(root, "src")).SelectMany(project => Directory.GetFiles(project, "*.md")))
            .Order(StringComparer.Ordinal);

    /// <summary>The C# blocks of every file under <paramref name="root"/>, and the places that break the convention.</summary>
    public static (List<Snippet> Snippets, List<string> Problems) Read(string root)
    {
        var snippets = new List<Snippet>();
        var problems = new List<string>();
        foreach (string file in Files(root))
        {
            string relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            snippets.AddRange(Read(relative, File.ReadAllText(file), problems));
        }

        return (snippets, problems);
    }

    /// <summary>The C# blocks of one file's <paramref name="markdown"/>; adds what breaks the convention to <paramref name="problems"/>.</summary>
    public static List<Snippet> Read(string file, string markdown, List<string> problems)
    {
        string[] lines = markdown.ReplaceLineEndings("\n").Split('\n');
        List<Block> blocks = ReadBlocks(file, lines, problems);
        var snippets = new List<Snippet>();
        for (int i = 0; i < blocks.Count; i++)
        {
            Block block = blocks[i];
            string location = $"{file}:{block.Line}";
            if (block.Language.Length == 0)
            {
                problems.Add($"{location}: the block names no language (```csharp, ```sh, ```xml, ```text, ...), so nothing checks what it holds.");
            }

            if (!IsCSharp(block.Language))
            {
                bool followsCode = i > 0 && IsCSharp(blocks[i - 1].Language) && blocks[i - 1].Marker is null;
                if (block.Marker is { Kind: Output } && !followsCode)
                {
                    problems.Add($"{location}: an output block must follow a C# block that runs (one with no marker).");
                }
                else if (block.Marker is { Kind: not Output })
                {
                    problems.Add($"{location}: '{block.Marker.Kind}' marks a {block.Language} block; only C# blocks are compiled.");
                }

                continue;
            }

            SnippetKind kind = SnippetKind.Run;
            switch (block.Marker?.Kind)
            {
                case null:
                    break;
                case CompileOnly:
                    kind = SnippetKind.CompileOnly;
                    break;
                case Fragment:
                    kind = SnippetKind.Fragment;
                    break;
                default:
                    problems.Add($"{location}: '{block.Marker.Kind}' cannot mark a C# block (compile-only or fragment, with a reason).");
                    break;
            }

            if (kind != SnippetKind.Run && string.IsNullOrWhiteSpace(block.Marker!.Reason))
            {
                problems.Add($"{location}: '{block.Marker.Kind}' needs its reason: <!-- snippet: {block.Marker.Kind}: why the block cannot {(kind == SnippetKind.Fragment ? "compile" : "run")} on its own -->.");
            }

            string? output = i + 1 < blocks.Count && blocks[i + 1].Marker is { Kind: Output } ? blocks[i + 1].Code : null;
            snippets.Add(new Snippet(location, file, block.Line + 1, block.Code, kind, output));
        }

        return snippets;
    }

    /// <summary>Whether a fence's language names C#.</summary>
    public static bool IsCSharp(string language) => language.ToLowerInvariant() is "csharp" or "cs" or "c#";

    /// <summary>Every fenced block, with the marker on the nearest non-blank line above it; checks every marker marks a block.</summary>
    private static List<Block> ReadBlocks(string file, string[] lines, List<string> problems)
    {
        var blocks = new List<Block>();
        Marker? pending = null;
        for (int i = 0; i < lines.Length; i++)
        {
            string line = lines[i];
            if (MarkerStart().IsMatch(line))
            {
                Match marker = MarkerLine().Match(line);
                if (!marker.Success || marker.Groups["kind"].Value is not (CompileOnly or Fragment or Output))
                {
                    problems.Add($"{file}:{i + 1}: not a snippet marker this test knows: <!-- snippet: compile-only: reason -->, <!-- snippet: fragment: reason --> or <!-- snippet: output -->.");
                    continue;
                }

                pending = new Marker(marker.Groups["kind"].Value, marker.Groups["reason"].Value.Trim(), i + 1);
                continue;
            }

            Match open = OpeningFence().Match(line);
            if (!open.Success)
            {
                if (pending is not null && line.Trim().Length != 0)
                {
                    problems.Add($"{file}:{pending.Line}: the marker is not on the line above a fenced block.");
                    pending = null;
                }

                continue;
            }

            string indent = open.Groups["indent"].Value;
            string fence = open.Groups["fence"].Value;
            int end = i + 1;
            while (end < lines.Length && !IsClosingFence(lines[end], fence))
            {
                end++;
            }

            if (end == lines.Length)
            {
                problems.Add($"{file}:{i + 1}: the block is never closed.");
                break;
            }

            string code = string.Join('\n', lines[(i + 1)..end].Select(text => text.StartsWith(indent, StringComparison.Ordinal) ? text[indent.Length..] : text.TrimStart()));
            blocks.Add(new Block(i + 1, open.Groups["language"].Value, code, pending));
            pending = null;
            i = end;
        }

        if (pending is not null)
        {
            problems.Add($"{file}:{pending.Line}: the marker is not on the line above a fenced block.");
        }

        return blocks;
    }

    private static bool IsClosingFence(string line, string fence)
    {
        string trimmed = line.Trim();
        return trimmed.Length >= fence.Length && trimmed.All(c => c == fence[0]);
    }

    [GeneratedRegex(@"^(?<indent>\s*)(?<fence>`{3,}|~{3,})\s*(?<language>[^\s`]*)")]
    private static partial Regex OpeningFence();

    [GeneratedRegex(@"^\s*<!--\s*snippet")]
    private static partial Regex MarkerStart();

    [GeneratedRegex(@"^\s*<!--\s*snippet:\s*(?<kind>[a-z-]+)\s*(:(?<reason>.*?))?\s*-->\s*$")]
    private static partial Regex MarkerLine();

    /// <summary>A fenced block: the line of its opening fence, its language, its text and its marker.</summary>
    private sealed record Block(int Line, string Language, string Code, Marker? Marker);

    /// <summary>A <c>&lt;!-- snippet: kind: reason --&gt;</c> marker and its line.</summary>
    private sealed record Marker(string Kind, string Reason, int Line);
}
