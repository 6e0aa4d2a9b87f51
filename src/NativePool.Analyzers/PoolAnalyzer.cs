using Microsoft.CodeAnalysis.Diagnostics;

namespace NativePool.Analyzers;

/// <summary>
/// The start that NativePool's analyzers share: generated code is skipped, callbacks run concurrently, and a compilation
/// that references no pool registers nothing.
/// </summary>
public abstract class PoolAnalyzer : DiagnosticAnalyzer
{
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
            if (PoolApi.TryCreate(start.Compilation) is { } api)
            {
                OnCompilationStart(start, api);
            }
        });
    }

    /// <summary>Registers the analyzer's actions for a compilation that references pools.</summary>
    private protected abstract void OnCompilationStart(CompilationStartAnalysisContext context, PoolApi api);
}
