using System.Globalization;
using System.Runtime.CompilerServices;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using Perfolizer.Horology;
using Perfolizer.Metrology;

namespace NativePool.Benchmarks;

/// <summary>
/// The one configuration every run uses: the short job (or the default one with <c>--full</c>; a <c>--job</c> on the
/// command line replaces it), the memory diagnoser, median and ratio columns, our threading-counter columns, the
/// GitHub Markdown export and a machine-readable CSV export (invariant culture, nanoseconds, bytes, no units in cells)
/// that the results document and the plots are made from.
/// </summary>
public static class BenchConfig
{
    /// <summary>The style of the CSV export the report and plots read.</summary>
    public static readonly SummaryStyle CsvStyle = new(
        CultureInfo.InvariantCulture,
        printUnitsInHeader: true,
        sizeUnit: SizeUnit.B,
        timeUnit: TimeUnit.Nanosecond,
        printUnitsInContent: false,
        printZeroValuesInContent: true,
        maxParameterColumnWidth: 64,
        ratioStyle: RatioStyle.Value);

    /// <summary>
    /// The short job: BenchmarkDotNet's ShortRun (1 launch, 3 warm-up and 3 measured iterations) with 125 ms iterations
    /// instead of 500 ms, so every suite fits one run of about 20 minutes on 2 cores; 125 ms keeps measured iterations
    /// above the 100 ms BenchmarkDotNet warns about, and still holds millions of nanosecond-scale operations.
    /// <c>--full</c> runs the default job for tighter intervals.
    /// </summary>
    public static readonly Job ShortJob = Job.ShortRun.WithIterationTime(TimeInterval.FromMilliseconds(125)).WithId("Short");

    public static IConfig Create(BenchOptions options)
    {
        ManualConfig config = ManualConfig.CreateEmpty();
        if (!options.HasJob)
        {
            // A job from the command line (--job dry, for instance) replaces this one; --inProcess and the like apply to it.
            Job job = options.Full ? Job.Default.WithId("Default") : ShortJob;
            config.AddJob(job.AsDefault());
        }

        return config
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddLogger(ConsoleLogger.Default)
            .AddAnalyser(DefaultConfig.Instance.GetAnalysers().ToArray())
            .AddValidator(DefaultConfig.Instance.GetValidators().ToArray())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumn(CategoriesColumn.Default)
            .AddColumn(StatisticColumn.Median)
            .AddColumn(BaselineRatioColumn.RatioMean)
            .AddColumn(CounterColumn.LockContentions, CounterColumn.CompletedWorkItems)
            .AddExporter(MarkdownExporter.GitHub)
            .AddExporter(new CsvExporter(CsvSeparator.Comma, CsvStyle))
            .AddFilter(new SimpleFilter(HasWork))
            .WithArtifactsPath(options.ArtifactsPath)
            .WithOrderer(new BenchmarkDotNet.Order.DefaultOrderer(BenchmarkDotNet.Order.SummaryOrderPolicy.Declared))
            .WithSummaryStyle(SummaryStyle.Default.WithRatioStyle(RatioStyle.Value).WithMaxParameterColumnWidth(64))
            .HideColumns(Column.Error)
            .AddLogicalGroupRules(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams);
    }

    /// <summary>
    /// Drops the cases a suite declares empty: DrainRefillMulti with no object per thread, and unmanaged-only rows of
    /// generic suites instantiated over a reference-holding element type.
    /// </summary>
    private static bool HasWork(BenchmarkCase benchmarkCase)
    {
        Type type = benchmarkCase.Descriptor.Type;
        if (type.IsGenericType
            && benchmarkCase.Descriptor.WorkloadMethod.IsDefined(typeof(UnmanagedElementsOnlyAttribute), inherit: false)
            && type.GetGenericArguments().Any(ContainsReferences))
        {
            return false;
        }

        if (benchmarkCase.Descriptor.Type == typeof(DrainRefillMultiBenchmarks))
        {
            var count = (int)benchmarkCase.Parameters[nameof(DrainRefillMultiBenchmarks.Count)];
            var threads = (int)benchmarkCase.Parameters[nameof(DrainRefillMultiBenchmarks.ThreadCount)];
            return DrainRefillMultiBenchmarks.HasWork(count, threads);
        }

        return true;
    }

    private static bool ContainsReferences(Type type) =>
        (bool)typeof(RuntimeHelpers).GetMethod(nameof(RuntimeHelpers.IsReferenceOrContainsReferences))!.MakeGenericMethod(type).Invoke(null, null)!;
}
