using System.Collections.Immutable;
using System.IO;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Text;
using NativePool.Tests;

namespace NativePool.IntegrationTests.Docs;

/// <summary>
/// Every C# block of the repository's Markdown (the root's *.md, docs/*.md, src/*/PACKAGE.md) is the whole Program.cs of a
/// console app, as CONTRIBUTING.md ("Code in the documentation") says: compiled on its own (no error, no warning)
/// against the libraries, the framework with ASP.NET Core and CommunityToolkit.HighPerformance, then run in a process of
/// its own, which must exit with 0 and print exactly the <c>&lt;!-- snippet: output --&gt;</c> block that follows it, if
/// any. Blocks marked compile-only or fragment say why on the marker. Every failure names the file and line.
/// </summary>
public sealed partial class DocSnippetTests
{
    /// <summary>The name of each snippet's assembly; this test assembly lets that name see its (the samples') internals.</summary>
    private const string SnippetAssemblyName = "NativePool.DocSnippets";

    private static readonly TimeSpan s_runTimeout = TimeSpan.FromMinutes(2);

    /// <summary>The implicit usings of the console template (<c>dotnet new console</c>), which a reader pastes a block into.</summary>
    private static readonly string s_implicitUsings = string.Concat(
        new[] { "System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks" }
            .Select(name => $"global using global::{name};\n"));

    /// <summary>The warnings the .NET SDK turns off in every project (NoWarn 1701;1702: assembly version unification).</summary>
    private static readonly Dictionary<string, ReportDiagnostic> s_sdkNoWarn = new() { ["CS1701"] = ReportDiagnostic.Suppress, ["CS1702"] = ReportDiagnostic.Suppress };

    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(LoadReferences);

    /// <summary>Every C# block, as "file:line" of its opening fence.</summary>
    public static TheoryData<string> Snippets()
    {
        var data = new TheoryData<string>();
        foreach (Snippet snippet in MarkdownSnippets.Read(RepositoryRoot.Find()).Snippets)
        {
            data.Add(snippet.Location);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Snippets))]
    public void TheBlockCompilesAndRunsAsItsTextSays(string location)
    {
        Snippet snippet = Assert.Single(MarkdownSnippets.Read(RepositoryRoot.Find()).Snippets, candidate => candidate.Location == location);

        string? failure = Check(snippet);

        Assert.True(failure is null, failure);
    }

    [Fact]
    public void EveryBlockNamesItsLanguageAndEveryMarkerItsReason()
    {
        List<string> problems = MarkdownSnippets.Read(RepositoryRoot.Find()).Problems;

        Assert.True(problems.Count == 0, string.Join('\n', problems));
    }

    [Fact]
    public void TheReadmeAndTheGuidesHaveBlocksThatRunAndTheQuickStartShowsWhatItPrints()
    {
        Snippet[] snippets = [.. MarkdownSnippets.Read(RepositoryRoot.Find()).Snippets.Where(snippet => snippet.Kind == SnippetKind.Run)];

        foreach (string file in new[] { "README.md", "docs/object-pool.md", "docs/native-memory.md", "docs/diagnostics.md", "docs/streams.md", "src/ManagedFacade/PACKAGE.md" })
        {
            Assert.Contains(snippets, snippet => snippet.File == file);
        }

        Assert.Contains(snippets, snippet => snippet.File == "README.md" && snippet.ExpectedOutput is not null);
    }

    [Fact]
    public void EveryInstallLineAsksForAPrereleaseWhileThePackagesArePrereleases()
    {
        string version = typeof(StripedArrayPool<>).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion;
        string root = RepositoryRoot.Find();
        var missing = new List<string>();
        foreach (string file in MarkdownSnippets.Files(root))
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                foreach (Match install in InstallCommand().Matches(lines[i]))
                {
                    if (!install.Value.Contains("--prerelease", StringComparison.Ordinal) && !install.Value.Contains("--version", StringComparison.Ordinal))
                    {
                        missing.Add($"{Path.GetRelativePath(root, file).Replace('\\', '/')}:{i + 1}: {install.Value.Trim()}");
                    }
                }
            }
        }

        // MinVer's versions between releases (0.1.0-alpha.0.N, 1.2.4-alpha.0.N) have a pre-release label: without
        // --prerelease, `dotnet add package` looks for a stable version and finds none. A release's lines may keep it.
        bool prerelease = version.Split('+')[0].Contains('-', StringComparison.Ordinal);
        Assert.True(!prerelease || missing.Count == 0, $"NativePool's version is {version}, but these lines install a stable version:\n{string.Join('\n', missing)}");
    }

    [Fact]
    public void ABrokenBlockFailsWithItsFileAndLine()
    {
        var snippet = new Snippet("guide.md:10", "guide.md", 11, "using NativePool;\n\nbyte[] buffer = StripedArrayPool<byte>.Shared.RentSomething(16);", SnippetKind.Run, null);

        string? failure = Check(snippet);

        Assert.NotNull(failure);
        Assert.Contains("guide.md:13:", failure, StringComparison.Ordinal);
        Assert.Contains("CS1061", failure, StringComparison.Ordinal);
    }

    [Fact]
    public void AWarningFailsTheBlock()
    {
        var snippet = new Snippet("guide.md:1", "guide.md", 2, "string? text = null;\nConsole.WriteLine(text.Length);", SnippetKind.Run, null);

        Assert.Contains("CS8602", Check(snippet), StringComparison.Ordinal);
    }

    [Fact]
    public void ABlockThatThrowsOrPrintsSomethingElseFails()
    {
        var throws = new Snippet("guide.md:1", "guide.md", 2, "throw new InvalidOperationException(\"the doc is wrong\");", SnippetKind.Run, null);
        var prints = new Snippet("guide.md:1", "guide.md", 2, "Console.WriteLine(6 * 7);", SnippetKind.Run, "41");

        Assert.Contains("the doc is wrong", Check(throws), StringComparison.Ordinal);
        Assert.Contains("42", Check(prints), StringComparison.Ordinal);
        Assert.Null(Check(prints with { ExpectedOutput = "42" }));
    }

    [Fact]
    public void ACompileOnlyBlockCompilesAndAFragmentParses()
    {
        var compileOnly = new Snippet("guide.md:1", "guide.md", 2, "using NativePool;\nbyte[] buffer = StripedArrayPool<byte>.Shared.Rent(16);\nthrow new InvalidOperationException();", SnippetKind.CompileOnly, null);
        var fragment = new Snippet("guide.md:1", "guide.md", 2, "public int Length => _buffer.Length;", SnippetKind.Fragment, null);
        var brokenFragment = new Snippet("guide.md:1", "guide.md", 2, "public int Length => _buffer.Length", SnippetKind.Fragment, null);

        Assert.Null(Check(compileOnly));
        Assert.Null(Check(fragment));
        Assert.Contains("CS1002", Check(brokenFragment), StringComparison.Ordinal);
        Assert.NotNull(Check(compileOnly with { Code = "int x = \"not a number\";" }));
    }

    [Fact]
    public void MarkersApplyToTheBlockRightBelowThemAndNeedTheirReasons()
    {
        const string Markdown =
            "<!-- snippet: compile-only: starts a server -->\n```csharp\nA();\n```\n\n```cs\nB();\n```\n\n<!-- snippet: output -->\n```text\nb\n```\n" +
            "<!-- snippet: fragment -->\n```c#\nC();\n```\n<!-- snippet: skip -->\n```csharp\nD();\n```\n```\nunlabelled\n```\n<!-- snippet: output -->\nprose\n";
        var problems = new List<string>();

        List<Snippet> snippets = MarkdownSnippets.Read("guide.md", Markdown, problems);

        Assert.Equal(["guide.md:2", "guide.md:6", "guide.md:15", "guide.md:19"], snippets.Select(snippet => snippet.Location));
        Assert.Equal([SnippetKind.CompileOnly, SnippetKind.Run, SnippetKind.Fragment, SnippetKind.Run], snippets.Select(snippet => snippet.Kind));
        Assert.Equal([null, "b", null, null], snippets.Select(snippet => snippet.ExpectedOutput));
        Assert.Equal(["guide.md:15", "guide.md:18", "guide.md:22", "guide.md:25"], problems.Select(problem => problem[..problem.IndexOf(": ", StringComparison.Ordinal)]).Order(StringComparer.Ordinal));
        Assert.Contains(problems, problem => problem.StartsWith("guide.md:15: 'fragment' needs its reason", StringComparison.Ordinal));
        Assert.Contains(problems, problem => problem.StartsWith("guide.md:18: not a snippet marker", StringComparison.Ordinal));
        Assert.Contains(problems, problem => problem.StartsWith("guide.md:22: the block names no language", StringComparison.Ordinal));
        Assert.Contains(problems, problem => problem.StartsWith("guide.md:25: the marker is not on the line above a fenced block", StringComparison.Ordinal));
    }

    /// <summary>What is wrong with <paramref name="snippet"/>, each line naming the file and line, or null when nothing is.</summary>
    private static string? Check(Snippet snippet)
    {
        if (snippet.Kind == SnippetKind.Fragment)
        {
            SyntaxTree fragment = CSharpSyntaxTree.ParseText(snippet.Code, new CSharpParseOptions(LanguageVersion.Latest, kind: SourceCodeKind.Script), "Program.cs");
            return Report(snippet, "does not parse", fragment.GetDiagnostics().Where(diagnostic => diagnostic.Severity == DiagnosticSeverity.Error));
        }

        CSharpParseOptions parse = new(LanguageVersion.Latest);
        CSharpCompilation compilation = CSharpCompilation.Create(
            SnippetAssemblyName,
            [CSharpSyntaxTree.ParseText(s_implicitUsings, parse, "GlobalUsings.cs"), CSharpSyntaxTree.ParseText(snippet.Code, parse, "Program.cs")],
            s_references.Value,
            new CSharpCompilationOptions(OutputKind.ConsoleApplication, allowUnsafe: true, nullableContextOptions: NullableContextOptions.Enable)
                .WithSpecificDiagnosticOptions(s_sdkNoWarn));

        using var assembly = new MemoryStream();
        Microsoft.CodeAnalysis.Emit.EmitResult result = compilation.Emit(assembly);
        string? compileFailure = Report(snippet, "does not compile cleanly", result.Diagnostics.Where(diagnostic => diagnostic.Severity >= DiagnosticSeverity.Warning));
        if (compileFailure is not null || snippet.Kind == SnippetKind.CompileOnly)
        {
            return compileFailure;
        }

        (int exitCode, string output) = Run(assembly.ToArray());
        if (exitCode != 0)
        {
            return $"{snippet.Location}: the block compiles, but its program exited with {exitCode}:\n{ChildProcess.Tail(output, 40)}\n--- block ---\n{snippet.Code}";
        }

        if (snippet.ExpectedOutput is { } expected && output.ReplaceLineEndings("\n").TrimEnd() != expected.TrimEnd())
        {
            return $"{snippet.Location}: the block prints\n{output}\nbut its output block says\n{expected}";
        }

        return null;
    }

    /// <summary>The diagnostics as "file:line:column: ...", at the lines of the Markdown file; null when there are none.</summary>
    private static string? Report(Snippet snippet, string what, IEnumerable<Diagnostic> diagnostics)
    {
        string[] lines = [.. diagnostics.Select(diagnostic =>
        {
            string text = $"{diagnostic.Severity.ToString().ToLowerInvariant()} {diagnostic.Id}: {diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}";
            if (diagnostic.Location.SourceTree?.FilePath != "Program.cs")
            {
                // No place in the block (a missing reference, the implicit usings): the block's fence.
                return $"{snippet.Location}: {text}";
            }

            LinePosition start = diagnostic.Location.GetLineSpan().StartLinePosition;
            return $"{snippet.File}:{snippet.FirstLine + start.Line}:{start.Character + 1}: {text}";
        })];
        return lines.Length == 0 ? null : $"{snippet.Location}: the block {what}:\n{string.Join('\n', lines)}\n--- block ---\n{snippet.Code}";
    }

    /// <summary>
    /// Runs the compiled block as a console app in a folder of its own: the assembly, a runtime configuration for this
    /// process's runtime and ASP.NET Core, and the assemblies of this test's folder it needs (directly or not).
    /// </summary>
    private static (int ExitCode, string Output) Run(byte[] image)
    {
        string folder = Path.Combine(Path.GetTempPath(), "nativepool-doc-snippet-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(folder);
        try
        {
            string program = Path.Combine(folder, SnippetAssemblyName + ".dll");
            File.WriteAllBytes(program, image);
            foreach (string dependency in LocalDependencies(program))
            {
                File.Copy(dependency, Path.Combine(folder, Path.GetFileName(dependency)));
            }

            string runtime = $"{Environment.Version.Major}.{Environment.Version.Minor}.0";
            File.WriteAllText(
                Path.Combine(folder, SnippetAssemblyName + ".runtimeconfig.json"),
                $$"""
                {
                  "runtimeOptions": {
                    "frameworks": [
                      { "name": "Microsoft.NETCore.App", "version": "{{runtime}}" },
                      { "name": "Microsoft.AspNetCore.App", "version": "{{runtime}}" }
                    ]
                  }
                }
                """);
            return ChildProcess.Run("dotnet", folder, s_runTimeout, ["exec", program]);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>The assemblies of this test's folder that <paramref name="assembly"/> refers to, directly or through each other.</summary>
    private static HashSet<string> LocalDependencies(string assembly)
    {
        var found = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Stack<string>([assembly]);
        while (pending.TryPop(out string? path))
        {
            using var reader = new PEReader(File.OpenRead(path));
            MetadataReader metadata = reader.GetMetadataReader();
            foreach (AssemblyReferenceHandle handle in metadata.AssemblyReferences)
            {
                string candidate = Path.Combine(AppContext.BaseDirectory, metadata.GetString(metadata.GetAssemblyReference(handle).Name) + ".dll");
                if (File.Exists(candidate) && found.Add(candidate))
                {
                    pending.Push(candidate);
                }
            }
        }

        return found;
    }

    /// <summary>
    /// What this test process runs on: the framework (with ASP.NET Core), the libraries, their dependencies and this
    /// assembly, which holds the samples' code.
    /// </summary>
    private static ImmutableArray<MetadataReference> LoadReferences()
    {
        string trusted = (string?)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES") ?? throw new InvalidOperationException("No trusted platform assemblies.");
        string[] paths = trusted.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries);
        string[] required =
            ["NativePool.dll", "NativePool.Engine.dll", "NativePool.Extensions.DependencyInjection.dll", "NativePool.AspNetCore.dll", "Microsoft.Extensions.ObjectPool.dll", "CommunityToolkit.HighPerformance.dll", "Microsoft.AspNetCore.dll"];
        foreach (string name in required)
        {
            Assert.Contains(paths, path => Path.GetFileName(path) == name);
        }

        return [.. paths.Where(path => !Path.GetFileName(path).StartsWith("xunit", StringComparison.OrdinalIgnoreCase)).Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))];
    }

    /// <summary>A <c>dotnet add package</c> line for one of NativePool's packages, up to the end of its line or code span.</summary>
    [GeneratedRegex(@"dotnet add package NativePool[^\s`]*[^`\n]*")]
    private static partial Regex InstallCommand();
}
