using System.Threading.Tasks;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp.Testing;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Testing;

namespace NativePool.Analyzers.Tests.Infrastructure;

/// <summary>Runs an analyzer and its code fix over one source and compares the fixed text exactly.</summary>
/// <typeparam name="TAnalyzer">The analyzer.</typeparam>
/// <typeparam name="TCodeFix">The code fix.</typeparam>
internal static class CodeFixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    /// <summary>Checks the diagnostics marked in <paramref name="source"/> and that fixing them all gives <paramref name="fixedSource"/>.</summary>
    /// <param name="source">The source, with the expected diagnostics marked.</param>
    /// <param name="fixedSource">The source after every fix.</param>
    /// <param name="title">The title the fix must have, or null for any.</param>
    public static Task VerifyAsync(string source, string fixedSource, string? title = null)
    {
        CSharpCodeFixTest<TAnalyzer, TCodeFix, DefaultVerifier> test = new()
        {
            TestCode = source,
            FixedCode = fixedSource,
            ReferenceAssemblies = TestReferences.Framework,
            CodeActionEquivalenceKey = title,
        };
        test.TestState.AdditionalReferences.AddRange(TestReferences.WithNativePool);
        test.FixedState.AdditionalReferences.AddRange(TestReferences.WithNativePool);
        test.TestState.AnalyzerConfigFiles.Add(TestReferences.AnalyzersOn);
        return test.RunAsync();
    }

    /// <summary>Checks that <paramref name="source"/> has no diagnostic of the analyzer, so nothing to fix.</summary>
    public static Task VerifyUntouchedAsync(string source) => VerifyAsync(source, source);
}
