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
    public static Task VerifyAsync(string source, bool withNativePool = true)
    {
        CSharpAnalyzerTest<TAnalyzer, DefaultVerifier> test = new()
        {
            TestCode = source,
            ReferenceAssemblies = TestReferences.Framework,
        };
        test.TestState.AdditionalReferences.AddRange(withNativePool ? TestReferences.WithNativePool : TestReferences.WithoutNativePool);
        return test.RunAsync();
    }
}
