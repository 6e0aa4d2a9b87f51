using System.Collections.Immutable;
using System.IO;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using NativePool.Tests;

namespace NativePool.IntegrationTests.Docs;

/// <summary>
/// Compiles every <c>```csharp</c> block of README.md, docs/*.md and the packages' src/*/PACKAGE.md, each on its own, as the Program.cs of a console app
/// (top-level statements, the console template's implicit usings) against the libraries (the container registration's
/// included), the framework and ASP.NET Core,
/// Microsoft.Extensions.ObjectPool and CommunityToolkit.HighPerformance. Blocks may use the samples' types (this test
/// assembly compiles the samples and lets the snippets see them). A block preceded by <c>&lt;!-- snippet: skip --&gt;</c>
/// is not compiled.
/// </summary>
public partial class SnippetCompilationTests
{
    /// <summary>The name of each snippet's assembly; this test assembly lets that name see its (the samples') internals.</summary>
    private const string SnippetAssemblyName = "NativePool.DocSnippets";

    private static readonly string[] s_implicitUsings =
        ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

    private static readonly Lazy<ImmutableArray<MetadataReference>> s_references = new(LoadReferences);

    /// <summary>Every snippet, as "file:line" of its opening fence.</summary>
    public static TheoryData<string> Snippets()
    {
        var data = new TheoryData<string>();
        foreach (string key in FindSnippets(RepositoryRoot.Find()).Keys)
        {
            data.Add(key);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Snippets))]
    public void TheSnippetCompiles(string snippet)
    {
        string code = FindSnippets(RepositoryRoot.Find())[snippet];

        string[] errors = Compile(code);

        Assert.True(errors.Length == 0, $"{snippet} does not compile:\n{string.Join('\n', errors)}\n--- snippet ---\n{code}");
    }

    [Fact]
    public void TheReadmeAndEveryGuideWithCodeHaveSnippetsToCompile()
    {
        string[] files = [.. FindSnippets(RepositoryRoot.Find()).Keys.Select(key => key[..key.LastIndexOf(':')]).Distinct()];

        Assert.Contains("README.md", files);
        Assert.Contains("docs/object-pool.md", files);
        Assert.Contains("docs/native-memory.md", files);
    }

    [Fact]
    public void ABrokenSnippetFailsToCompile()
    {
        Assert.NotEmpty(Compile("using NativePool;\nbyte[] buffer = StripedArrayPool<byte>.Shared.RentSomething(16);"));
        Assert.NotEmpty(Compile("var pool = new StripedObjectPool<object>(() => new object(), cleanup: null, maximumRetained: 8);"));
    }

    [Fact]
    public void AWorkingSnippetCompiles()
    {
        Assert.Empty(Compile("using NativePool;\nbyte[] buffer = StripedArrayPool<byte>.Shared.Rent(16);\nStripedArrayPool<byte>.Shared.Return(buffer);"));
    }

    [Fact]
    public void ASkipMarkerRemovesOnlyTheBlockRightAfterIt()
    {
        const string Markdown = "<!-- snippet: skip -->\n```csharp\nnot code\n```\n\n```csharp\nint x = 1;\n```\n";

        string[] blocks = [.. ExtractBlocks(Markdown).Select(block => block.Code)];

        Assert.Equal(["int x = 1;"], blocks);
    }

    private static string[] Compile(string code)
    {
        string usings = string.Concat(s_implicitUsings.Select(name => $"global using global::{name};\n"));
        CSharpParseOptions parse = new(LanguageVersion.Preview);
        CSharpCompilation compilation = CSharpCompilation.Create(
            SnippetAssemblyName,
            [CSharpSyntaxTree.ParseText(usings, parse, "GlobalUsings.cs"), CSharpSyntaxTree.ParseText(code, parse, "Program.cs")],
            s_references.Value,
            new CSharpCompilationOptions(OutputKind.ConsoleApplication, allowUnsafe: true, nullableContextOptions: NullableContextOptions.Enable));

        using var assembly = new MemoryStream();
        Microsoft.CodeAnalysis.Emit.EmitResult result = compilation.Emit(assembly);
        return [.. result.Diagnostics.Where(diagnostic => diagnostic.Severity == DiagnosticSeverity.Error).Select(diagnostic => diagnostic.ToString())];
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
            ["NativePool.dll", "NativePool.Engine.dll", "NativePool.Extensions.DependencyInjection.dll", "Microsoft.Extensions.ObjectPool.dll", "CommunityToolkit.HighPerformance.dll", "Microsoft.AspNetCore.dll"];
        foreach (string name in required)
        {
            Assert.Contains(paths, path => Path.GetFileName(path) == name);
        }

        return [.. paths.Where(path => !Path.GetFileName(path).StartsWith("xunit", StringComparison.OrdinalIgnoreCase)).Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))];
    }

    private static Dictionary<string, string> FindSnippets(string root)
    {
        var snippets = new Dictionary<string, string>(StringComparer.Ordinal);
        IEnumerable<string> files = new[] { Path.Combine(root, "README.md") }
            .Concat(Directory.GetFiles(Path.Combine(root, "docs"), "*.md").Order(StringComparer.Ordinal))
            .Concat(Directory.GetFiles(Path.Combine(root, "src"), "PACKAGE.md", SearchOption.AllDirectories).Order(StringComparer.Ordinal));
        foreach (string file in files)
        {
            string relative = Path.GetRelativePath(root, file).Replace('\\', '/');
            foreach ((int line, string code) in ExtractBlocks(File.ReadAllText(file)))
            {
                snippets.Add($"{relative}:{line}", code);
            }
        }

        return snippets;
    }

    /// <summary>Each <c>```csharp</c> block not preceded by the skip marker, with the line number of its opening fence.</summary>
    private static IEnumerable<(int Line, string Code)> ExtractBlocks(string markdown)
    {
        string[] lines = markdown.Replace("\r\n", "\n", StringComparison.Ordinal).Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            if (lines[i].TrimEnd() != "```csharp")
            {
                continue;
            }

            int end = Array.FindIndex(lines, i + 1, line => line.TrimEnd() == "```");
            Assert.True(end > i, $"The csharp block at line {i + 1} is not closed.");
            int previous = i - 1;
            while (previous >= 0 && lines[previous].Trim().Length == 0)
            {
                previous--;
            }

            if (previous < 0 || !SkipMarker().IsMatch(lines[previous]))
            {
                yield return (i + 1, string.Join('\n', lines[(i + 1)..end]));
            }

            i = end;
        }
    }

    [GeneratedRegex(@"^\s*<!--\s*snippet:\s*skip\s*-->\s*$")]
    private static partial Regex SkipMarker();
}
