using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// A summary column showing a threading counter the benchmark recorded itself (see <see cref="ThreadingCounters"/>),
/// named like the threading diagnoser's columns so the tables read like the published ones. Shown only for suites that record them.
/// </summary>
public sealed class CounterColumn : IColumn
{
    /// <summary>Monitor lock contentions per invocation.</summary>
    public static readonly IColumn LockContentions = new CounterColumn("Lock Contentions", static v => v.LockContentions);

    /// <summary>Thread-pool work items completed per invocation.</summary>
    public static readonly IColumn CompletedWorkItems = new CounterColumn("Completed Work Items", static v => v.CompletedWorkItems);

    private readonly Func<ThreadingCounterValues, double> _select;

    private CounterColumn(string name, Func<ThreadingCounterValues, double> select)
    {
        ColumnName = name;
        _select = select;
    }

    public string Id => "NativePool." + ColumnName;

    public string ColumnName { get; }

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Metric;

    public int PriorityInCategory => 0;

    public bool IsNumeric => true;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => $"{ColumnName} per invocation, measured by the benchmark between its global setup and cleanup";

    public bool IsAvailable(Summary summary) => summary.BenchmarksCases.Any(c => CounterStore.TryRead(c, out _));

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, summary.Style);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
        CounterStore.TryRead(benchmarkCase, out ThreadingCounterValues values)
            ? _select(values).ToString("0.0000", style.CultureInfo ?? CultureInfo.InvariantCulture)
            : "-";

    public override string ToString() => ColumnName;
}
