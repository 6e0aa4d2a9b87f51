using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.Loader;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Xunit.Abstractions;

namespace NativePool.Analyzers.Tests.Migration;

/// <summary>
/// The migration a user runs, <c>dotnet format analyzers --diagnostics NP0006 NP0007 NP0014 NP0015 NP0016 --severity info</c>,
/// done here the way that command does it (each id in turn, analyzed again, fixed all at once) over
/// <see cref="MigrationCorpus"/>; the result is compiled with warnings as errors and run beside the original.
/// </summary>
public sealed class MigrationCorpusTests(ITestOutputHelper output)
{
    private static readonly string[] s_ids = [DiagnosticIds.UseStripedArrayPool, DiagnosticIds.UseRentScoped, DiagnosticIds.UseRentScopedWithoutFinally, DiagnosticIds.UseRentScopedBesideStackalloc, DiagnosticIds.UseRentLease];

    private static readonly ImmutableArray<DiagnosticAnalyzer> s_fixAnalyzers =
        [new SharedArrayPoolAnalyzer(), new RentScopedAnalyzer()];

    private static readonly ImmutableArray<CodeFixProvider> s_fixers =
        [new SharedArrayPoolCodeFixProvider(), new RentScopedCodeFixProvider()];

    private static readonly AnalyzerOptions s_analyzersOn = new([], new AnalyzersOnProvider());

    private static readonly Regex s_rent = new(@"\.Rent\(", RegexOptions.Compiled);

    private static readonly Regex s_bclShared = new(@"(?<!Striped)ArrayPool<\w+>\.Shared", RegexOptions.Compiled);

    [Theory]
    [InlineData(FixAllScope.Solution, false)]
    [InlineData(FixAllScope.Solution, true)]
    [InlineData(FixAllScope.Project, false)]
    [InlineData(FixAllScope.Document, false)]
    public async Task OneRunOfTheFixesConvertsEveryStayingSiteAndTheCodeBehavesAsBeforeAndReturnsEveryArray(FixAllScope scope, bool reverseIds)
    {
        string[] original = [MigrationCorpus.Parsers, MigrationCorpus.Formatters, MigrationCorpus.Async];
        string[] migrated = await FixAsync(original, reverseIds ? [.. s_ids.Reverse()] : s_ids, scope);
        string[] swapped = await FixAsync(original, [DiagnosticIds.UseStripedArrayPool], scope);

        // Every site whose array stays in its method is converted, and none whose array escapes.
        (int staying, int escaping) = CountRents(original);
        (int stayingLeft, int escapingLeft) = CountRents(migrated);
        output.WriteLine($"{scope}, ids {(reverseIds ? "reversed" : "in order")}: converted {staying - stayingLeft} of {staying} sites whose array stays in the method ({100.0 * (staying - stayingLeft) / staying:F1} %), {escaping - escapingLeft} of {escaping} whose array escapes");
        Assert.Equal(escaping, escapingLeft);

        // The seven sites of the async file whose array stays, held across an await, are leases now.
        Assert.Equal(7, Regex.Count(migrated[2], @"\.RentLease\("));
        Assert.True(staying - stayingLeft >= 0.95 * staying, string.Join("\n----\n", migrated));
        Assert.DoesNotContain(migrated, static text => s_bclShared.IsMatch(text));

        // Compiled with warnings as errors; the migrated code has no finding of the other analyzers either.
        byte[] originalAssembly = await CompileAsync(original, "Original");
        byte[] swappedAssembly = await CompileAsync(swapped, "Swapped");
        byte[] migratedAssembly = await CompileAsync(migrated, "Migrated");
        Assert.Empty(await FindingsAsync(migrated));

        // The same results; every array back in its pool. The swapped code (NP0006 alone, rents and returns by hand) leaks
        // the array that the parser's FormatException skips the return of; the migrated code's scope gives it back.
        (string originalLog, _) = Run(originalAssembly);
        (string swappedLog, long swappedLeaks) = Run(swappedAssembly);
        (string migratedLog, long migratedLeaks) = Run(migratedAssembly);
        Assert.Equal(originalLog, swappedLog);
        Assert.Equal(originalLog, migratedLog);
        Assert.Equal(1, swappedLeaks);
        Assert.Equal(0, migratedLeaks);
    }

    /// <summary>The rents left (<c>.Rent(</c>) on lines without and with the <c>// stays</c> mark.</summary>
    private static (int Staying, int Escaping) CountRents(IEnumerable<string> sources)
    {
        var lines = sources.SelectMany(static s => s.Split('\n')).Where(static l => s_rent.IsMatch(l)).ToList();
        int escaping = lines.Count(static l => l.Contains("// stays", StringComparison.Ordinal));
        return (lines.Count - escaping, escaping);
    }

    private static Project CreateProject(IReadOnlyList<string> sources, string name)
    {
        AdhocWorkspace workspace = new();
        Project project = workspace.CurrentSolution
            .AddProject(name, name, LanguageNames.CSharp)
            .WithCompilationOptions(new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable, generalDiagnosticOption: ReportDiagnostic.Error))
            .WithParseOptions(new CSharpParseOptions(LanguageVersion.Latest))
            .AddMetadataReferences(TestReferences.WithNativePool);
        for (int i = 0; i < sources.Count; i++)
        {
            project = project.AddDocument($"Corpus{i}.cs", SourceText.From(sources[i]), filePath: $"/corpus/Corpus{i}.cs").Project;
        }

        return project;
    }

    /// <summary>As <c>dotnet format analyzers</c>: for each id in turn, analyze the current code again and fix all it reports.</summary>
    private static async Task<string[]> FixAsync(IReadOnlyList<string> sources, IEnumerable<string> ids, FixAllScope scope)
    {
        Project project = CreateProject(sources, "Corpus");
        foreach (string id in ids)
        {
            Compilation compilation = (await project.GetCompilationAsync())!;
            ImmutableArray<Diagnostic> diagnostics = [.. (await compilation.WithAnalyzers(s_fixAnalyzers, s_analyzersOn).GetAnalyzerDiagnosticsAsync()).Where(d => d.Id == id)];
            if (diagnostics.IsEmpty)
            {
                continue;
            }

            CodeFixProvider fixer = s_fixers.Single(f => f.FixableDiagnosticIds.Contains(id));
            IEnumerable<Document> starts = scope == FixAllScope.Document
                ? project.Documents.Where(d => diagnostics.Any(x => x.Location.SourceTree!.FilePath == d.FilePath)).ToList()
                : [project.Documents.First(d => d.FilePath == diagnostics[0].Location.SourceTree!.FilePath)];
            foreach (DocumentId documentId in starts.Select(static d => d.Id))
            {
                Document document = project.GetDocument(documentId)!;
                Diagnostic first = diagnostics.First(d => d.Location.SourceTree!.FilePath == document.FilePath);
                List<CodeAction> actions = [];
                await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, first, (action, _) => actions.Add(action), CancellationToken.None));
                FixAllContext context = new(document, fixer, scope, actions[0].EquivalenceKey, [id], new FixedDiagnostics(diagnostics), CancellationToken.None);
                CodeAction fixAll = (await fixer.GetFixAllProvider()!.GetFixAsync(context))!;
                foreach (CodeActionOperation operation in await fixAll.GetOperationsAsync(CancellationToken.None))
                {
                    if (operation is ApplyChangesOperation apply)
                    {
                        project = apply.ChangedSolution.GetProject(project.Id)!;
                    }
                }
            }
        }

        return [.. await Task.WhenAll(project.Documents.OrderBy(static d => d.Name, StringComparer.Ordinal).Select(async d => (await d.GetTextAsync()).ToString()))];
    }

    private static async Task<byte[]> CompileAsync(IReadOnlyList<string> sources, string name)
    {
        Compilation compilation = (await CreateProject(sources, name).GetCompilationAsync())!;
        using MemoryStream image = new();
        Microsoft.CodeAnalysis.Emit.EmitResult result = compilation.Emit(image);
        Assert.True(result.Success, name + ":\n" + string.Join("\n", result.Diagnostics) + "\n" + string.Join("\n----\n", sources));
        Assert.Empty(result.Diagnostics.Where(static d => d.Severity >= DiagnosticSeverity.Warning));
        return image.ToArray();
    }

    /// <summary>The warnings and errors of every NativePool analyzer over <paramref name="sources"/>.</summary>
    private static async Task<ImmutableArray<Diagnostic>> FindingsAsync(IReadOnlyList<string> sources)
    {
        Compilation compilation = (await CreateProject(sources, "Findings").GetCompilationAsync())!;
        ImmutableArray<DiagnosticAnalyzer> all = [.. s_fixAnalyzers, new PoolUsageAnalyzer(), new ScopeCopyAnalyzer()];
        return [.. (await compilation.WithAnalyzers(all, s_analyzersOn).GetAnalyzerDiagnosticsAsync()).Where(static d => d.Severity >= DiagnosticSeverity.Warning)];
    }

    /// <summary>Runs the corpus's harness in a context of its own; the log, and how many arrays it did not give back.</summary>
    private static (string Log, long Leaks) Run(byte[] image)
    {
        AssemblyLoadContext context = new("MigrationCorpus", isCollectible: true);
        try
        {
            Type harness = context.LoadFromStream(new MemoryStream(image)).GetType("Corpus.Harness", throwOnError: true)!;
            long before = SharedOutstanding();
            string log = (string)harness.GetMethod("Run", BindingFlags.Public | BindingFlags.Static)!.Invoke(null, null)!;
            long leaks = SharedOutstanding() - before + (long)harness.GetMethod("Outstanding", BindingFlags.Public | BindingFlags.Static)!.Invoke(null, null)!;
            return (log, leaks);
        }
        finally
        {
            context.Unload();
        }
    }

    private static long SharedOutstanding()
        => StripedArrayPool<byte>.Shared.GetStatistics().Outstanding + StripedArrayPool<char>.Shared.GetStatistics().Outstanding
            + StripedArrayPool<int>.Shared.GetStatistics().Outstanding;

    /// <summary>The diagnostics of the analysis that preceded the fix, as <c>dotnet format</c> hands them on.</summary>
    private sealed class FixedDiagnostics(ImmutableArray<Diagnostic> diagnostics) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken)
            => Task.FromResult<IEnumerable<Diagnostic>>(diagnostics);

        public override Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
            => Task.FromResult(diagnostics.Where(d => d.Location.SourceTree!.FilePath == document.FilePath));

        public override Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken)
            => Task.FromResult(Enumerable.Empty<Diagnostic>());
    }

    /// <summary>What a project that references a NativePool package has: the analyzers turned on.</summary>
    private sealed class AnalyzersOnProvider : AnalyzerConfigOptionsProvider
    {
        public override AnalyzerConfigOptions GlobalOptions { get; } = new On();

        public override AnalyzerConfigOptions GetOptions(SyntaxTree tree) => GlobalOptions;

        public override AnalyzerConfigOptions GetOptions(AdditionalText textFile) => GlobalOptions;

        private sealed class On : AnalyzerConfigOptions
        {
            public override bool TryGetValue(string key, out string value)
            {
                value = "true";
                return key == "build_property.NativePoolAnalyzersEnabled";
            }
        }
    }
}
