using System.Globalization;

namespace NativePool.Benchmarks.Reporting;

/// <summary>One benchmark case of a <see cref="ResultTable"/>: a method (its table label) at one parameter combination.</summary>
/// <param name="Method">The row label (the method's description, e.g. <c>Tedd-style (re-created)</c>).</param>
/// <param name="Parameters">Parameter name and value pairs, in the export's column order.</param>
/// <param name="MeanNs">Mean time per operation in nanoseconds; null when the case failed.</param>
/// <param name="MedianNs">Median time per operation in nanoseconds.</param>
/// <param name="StdDevNs">Standard deviation in nanoseconds.</param>
/// <param name="Ratio">BenchmarkDotNet's ratio to the category's baseline at the same parameters.</param>
/// <param name="AllocatedBytes">Bytes allocated per operation.</param>
/// <param name="LockContentions">Monitor lock contentions per invocation, when recorded.</param>
/// <param name="CompletedWorkItems">Thread-pool work items per invocation, when recorded.</param>
/// <param name="Job">The job's id.</param>
public sealed record ResultRow(
    string Method,
    IReadOnlyList<KeyValuePair<string, string>> Parameters,
    double? MeanNs,
    double? MedianNs,
    double? StdDevNs,
    double? Ratio,
    double? AllocatedBytes,
    double? LockContentions,
    double? CompletedWorkItems,
    string Job)
{
    /// <summary>The parameters as one text, e.g. <c>Held=1, Threads=32</c>.</summary>
    public string ParameterText => string.Join(", ", Parameters.Select(p => $"{p.Key}={p.Value}"));

    /// <summary>An integer parameter's value, or null.</summary>
    public int? IntParameter(string name)
    {
        foreach (KeyValuePair<string, string> pair in Parameters)
        {
            if (pair.Key == name && int.TryParse(pair.Value, NumberStyles.Integer, CultureInfo.InvariantCulture, out int value))
            {
                return value;
            }
        }

        return null;
    }

    /// <summary>The thread count of the row (parameter ThreadCount or Threads), or null for single-threaded suites.</summary>
    public int? ThreadCount => IntParameter("ThreadCount") ?? IntParameter("Threads");
}
