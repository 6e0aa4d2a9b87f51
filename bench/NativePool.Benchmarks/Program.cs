using System.IO;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using NativePool.Benchmarks.Churn;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Interleaved;
using NativePool.Benchmarks.Reporting;

namespace NativePool.Benchmarks;

/// <summary>
/// Runs the benchmarks BenchmarkSwitcher selects (all of them without <c>--filter</c>), then optionally writes the
/// results document. Exit code 1 when any benchmark failed or the selection was invalid. With <c>--ab</c> it runs the
/// interleaved A/B goal measurement instead (<see cref="InterleavedProgram"/>).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (ShippedTextCheck.IsRequested(args))
        {
            return ShippedTextCheck.Run(args);
        }

        if (InterleavedOptions.IsRequested(args))
        {
            return InterleavedProgram.Run(args);
        }

        if (ChurnProgram.IsRequested(args))
        {
            return ChurnProgram.Run(args);
        }

        if (RetentionProgram.IsRequested(args))
        {
            return RetentionProgram.Run(args);
        }

        BenchOptions options = BenchOptions.Parse(args);
        string resultsDirectory = Path.Combine(options.ArtifactsPath, "results");

        if (options.ReportOnly)
        {
            return WriteReport(options, resultsDirectory) ? 0 : 1;
        }

        // Inherited by the benchmark processes BenchmarkDotNet starts, so host and children agree.
        Environment.SetEnvironmentVariable(CounterStore.DirectoryVariable, Path.Combine(options.ArtifactsPath, "counters"));
        if (options.Quick)
        {
            Environment.SetEnvironmentVariable(BenchParams.QuickVariable, "1");
        }

        Summary[] summaries = BenchmarkSwitcher
            .FromAssembly(typeof(Program).Assembly)
            .Run([.. options.BenchmarkArguments], BenchConfig.Create(options))
            .ToArray();

        bool failed = false;
        foreach (Summary summary in summaries)
        {
            if (summary.HasCriticalValidationErrors || summary.Reports.Any(r => !r.Success) || summary.Reports.Length != summary.BenchmarksCases.Length)
            {
                Console.Error.WriteLine($"Benchmark failures in {summary.Title}.");
                failed = true;
            }
        }

        if (options.ReportPath is not null && summaries.Length > 0)
        {
            RunInfo.Write(resultsDirectory, options, summaries);
            failed |= !WriteReport(options, resultsDirectory);
        }

        return failed ? 1 : 0;
    }

    private static bool WriteReport(BenchOptions options, string resultsDirectory)
    {
        string path = options.ReportPath ?? Path.GetFullPath(Path.Combine("docs", "benchmarks.md"));
        return BenchmarksDocument.Write(resultsDirectory, path);
    }
}
