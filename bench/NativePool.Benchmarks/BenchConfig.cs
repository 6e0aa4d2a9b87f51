using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Csv;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Reports;

namespace NativePool.Benchmarks;

/// <summary>The one configuration every run uses: short job unless --full, memory diagnoser, ratio columns, CSV for plots.</summary>
public static class BenchConfig
{
    public static IConfig Create(string[] args)
    {
        bool full = args.Contains("--full");
        Job job = full ? Job.Default : Job.ShortRun;
        return DefaultConfig.Instance
            .AddJob(job.WithId(full ? "Default" : "Short"))
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddColumn(StatisticColumn.Median)
            .AddColumn(BaselineRatioColumn.RatioMean)
            .AddExporter(CsvMeasurementsExporter.Default)
            .AddExporter(CsvExporter.Default)
            .AddExporter(MarkdownExporter.GitHub)
            .WithOrderer(new BenchmarkDotNet.Order.DefaultOrderer(BenchmarkDotNet.Order.SummaryOrderPolicy.Declared))
            .WithSummaryStyle(SummaryStyle.Default.WithRatioStyle(RatioStyle.Value))
            .HideColumns(Column.Error, Column.StdDev)
            .AddLogicalGroupRules(BenchmarkLogicalGroupRule.ByCategory, BenchmarkLogicalGroupRule.ByParams);
    }
}
