using Microsoft.CodeAnalysis.Diagnostics;

namespace NativePool.Analyzers;

/// <summary>
/// The start that NativePool's analyzers share: generated code is skipped, callbacks run concurrently, and a compilation
/// that references no pool, or whose project did not turn the analyzers on, registers nothing.
/// </summary>
/// <remarks>
/// The analyzers are on where the build says <c>NativePoolAnalyzersEnabled = true</c>, which each NativePool package's
/// <c>build/</c> props set for the projects that reference it directly. A project that gets the analyzer assembly only
/// through another project or package (NuGet hands analyzers on that way) has no such property, and stays quiet.
/// </remarks>
public abstract class PoolAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The build property (an MSBuild property made visible to the compiler) that turns the analyzers on.</summary>
    internal const string EnabledProperty = "build_property.NativePoolAnalyzersEnabled";

    private protected PoolAnalyzer()
    {
    }

    /// <inheritdoc/>
    public sealed override void Initialize(AnalysisContext context)
    {
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.EnableConcurrentExecution();
        context.RegisterCompilationStartAction(start =>
        {
            if (IsEnabled(start.Options) && PoolApi.TryCreate(start.Compilation) is { } api)
            {
                OnCompilationStart(start, api);
            }
        });
    }

    /// <summary>Whether the project turned the analyzers on (see the remarks).</summary>
    private static bool IsEnabled(AnalyzerOptions options) => IsTrue(options.AnalyzerConfigOptionsProvider.GlobalOptions, EnabledProperty);

    /// <summary>Whether the build or .editorconfig option <paramref name="key"/> is <c>true</c>.</summary>
    internal static bool IsTrue(AnalyzerConfigOptions options, string key)
        => options.TryGetValue(key, out string? value) && string.Equals(value.Trim(), "true", System.StringComparison.OrdinalIgnoreCase);

    /// <summary>Registers the analyzer's actions for a compilation that references pools.</summary>
    private protected abstract void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api);
}
