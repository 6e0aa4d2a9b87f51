using System.Threading.Tasks;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace NativePool.Analyzers.Tests.Infrastructure;

/// <summary>Runs an analyzer over one source whose expected diagnostics are marked in it (<c>{|NP0001:text|}</c>).</summary>
/// <typeparam name="TAnalyzer">The analyzer.</typeparam>
internal static class AnalyzerVerifier<TAnalyzer>
    where TAnalyzer : DiagnosticAnalyzer, new()
{
    /// <summary>Checks that <paramref name="source"/> produces exactly the diagnostics marked in it.</summary>
    /// <param name="source">The source, with the expected diagnostics marked.</param>
    /// <param name="withNativePool">Whether NativePool is referenced.</param>
    /// <param name="editorConfig">Lines of an .editorconfig section for C# files, or null.</param>
    public static Task VerifyAsync(string source, bool withNativePool = true, string? editorConfig = null)
        => VerifyAsync(source, [], withNativePool, editorConfig);

    /// <summary>
    /// Checks that <paramref name="source"/> produces exactly the diagnostics marked in it and <paramref name="expected"/>
    /// (which locate themselves with <c>{|#0:text|}</c> marks and say their severity and message).
    /// </summary>
    /// <param name="source">The source, with the expected diagnostics marked.</param>
    /// <param name="expected">Further expected diagnostics.</param>
    /// <param name="withNativePool">Whether NativePool is referenced.</param>
    /// <param name="editorConfig">Lines of an .editorconfig section for C# files, or null.</param>
    /// <param name="analyzersOn">Whether the project turned the analyzers on, as a direct reference of a package does.</param>
    public static Task VerifyAsync(string source, DiagnosticResult[] expected, bool withNativePool = true, string? editorConfig = null, bool analyzersOn = true)
    {
        CSharpAnalyzerTest<TAnalyzer, DefaultVerifier> test = new()
        {
            TestCode = source,
            ReferenceAssemblies = TestReferences.Framework,
        };
        test.ExpectedDiagnostics.AddRange(expected);
        if (analyzersOn)
        {
            test.TestState.AnalyzerConfigFiles.Add(TestReferences.AnalyzersOn);
        }

        if (editorConfig is not null)
        {
            test.TestState.AnalyzerConfigFiles.Add(("/.editorconfig", "root = true\n\n[*.cs]\n" + editorConfig + "\n"));
        }

        test.TestState.AdditionalReferences.AddRange(withNativePool ? TestReferences.WithNativePool : TestReferences.WithoutNativePool);
        return test.RunAsync();
    }
}
