using System.Globalization;
using System.IO;
using System.Text;

namespace NativePool.Benchmarks.Reporting;

/// <summary>
/// One benchmark class's results, read back from BenchmarkDotNet's CSV export (written with
/// <see cref="BenchConfig.CsvStyle"/>: invariant culture, nanoseconds and bytes, units in the header only).
/// </summary>
public sealed class ResultTable
{
    private const string ReportSuffix = "-report.csv";
    private const string NamespacePrefix = "NativePool.Benchmarks.";

    private ResultTable(string key, IReadOnlyList<string> parameterNames, IReadOnlyList<ResultRow> rows, DateTime written)
    {
        Key = key;
        ParameterNames = parameterNames;
        Rows = rows;
        Written = written;
    }

    /// <summary>The class, as the export names it without our namespace prefix: <c>Buffers.BufferRentReturnBenchmarks_Byte_</c>.</summary>
    public string Key { get; }

    /// <summary>The parameter columns, in the export's order.</summary>
    public IReadOnlyList<string> ParameterNames { get; }

    public IReadOnlyList<ResultRow> Rows { get; }

    /// <summary>When the export was written (UTC).</summary>
    public DateTime Written { get; }

    /// <summary>Whether any row recorded threading counters.</summary>
    public bool HasCounters => Rows.Any(r => r.LockContentions is not null || r.CompletedWorkItems is not null);

    /// <summary>Reads every CSV report in <paramref name="resultsDirectory"/>, keyed by <see cref="Key"/>.</summary>
    public static IReadOnlyDictionary<string, ResultTable> ReadAll(string resultsDirectory)
    {
        var tables = new Dictionary<string, ResultTable>(StringComparer.Ordinal);
        if (!Directory.Exists(resultsDirectory))
        {
            return tables;
        }

        foreach (string path in Directory.EnumerateFiles(resultsDirectory, "*" + ReportSuffix))
        {
            ResultTable? table = Read(path);
            if (table is not null)
            {
                tables[table.Key] = table;
            }
        }

        return tables;
    }

    /// <summary>Reads one CSV report; null when it is not one of ours or has no rows.</summary>
    public static ResultTable? Read(string path)
    {
        string name = Path.GetFileName(path);
        if (!name.StartsWith(NamespacePrefix, StringComparison.Ordinal) || !name.EndsWith(ReportSuffix, StringComparison.Ordinal))
        {
            return null;
        }

        string key = name[NamespacePrefix.Length..^ReportSuffix.Length];
        string[] lines = File.ReadAllLines(path);
        if (lines.Length < 2)
        {
            return null;
        }

        List<string> header = SplitCsvLine(lines[0]);
        int method = header.IndexOf("Method");
        int categories = header.IndexOf("Categories");
        int mean = header.IndexOf("Mean [ns]");
        if (method < 0 || mean < 0)
        {
            return null;
        }

        // The parameter columns sit between the job characteristics (ending with Categories) and the statistics.
        int firstParameter = categories >= 0 ? categories + 1 : mean;
        var parameterNames = header.Skip(firstParameter).Take(mean - firstParameter).ToList();

        var rows = new List<ResultRow>();
        foreach (string line in lines.Skip(1))
        {
            if (string.IsNullOrWhiteSpace(line))
            {
                continue;
            }

            List<string> cells = SplitCsvLine(line);
            string Cell(string column)
            {
                int index = header.IndexOf(column);
                return index >= 0 && index < cells.Count ? cells[index] : string.Empty;
            }

            var parameters = new List<KeyValuePair<string, string>>();
            for (int i = 0; i < parameterNames.Count; i++)
            {
                parameters.Add(new(parameterNames[i], cells[firstParameter + i]));
            }

            rows.Add(new ResultRow(
                Unquote(cells[method]),
                parameters,
                ParseNumber(Cell("Mean [ns]")),
                ParseNumber(Cell("Median [ns]")),
                ParseNumber(Cell("StdDev [ns]")),
                ParseNumber(Cell("Ratio")),
                ParseNumber(Cell("Allocated [B]")),
                ParseNumber(Cell("Lock Contentions")),
                ParseNumber(Cell("Completed Work Items")),
                Cell("Job")));
        }

        return rows.Count == 0 ? null : new ResultTable(key, parameterNames, rows, File.GetLastWriteTimeUtc(path));
    }

    /// <summary>The rows of one parameter combination (one group of the tables; one ratio baseline).</summary>
    public IEnumerable<IGrouping<string, ResultRow>> Groups() => Rows.GroupBy(r => r.ParameterText, StringComparer.Ordinal);

    /// <summary>Splits one CSV line (RFC 4180 quoting).</summary>
    public static List<string> SplitCsvLine(string line)
    {
        var cells = new List<string>();
        var cell = new StringBuilder();
        bool quoted = false;
        for (int i = 0; i < line.Length; i++)
        {
            char c = line[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < line.Length && line[i + 1] == '"')
                {
                    cell.Append('"');
                    i++;
                }
                else if (c == '"')
                {
                    quoted = false;
                }
                else
                {
                    cell.Append(c);
                }
            }
            else if (c == '"')
            {
                quoted = true;
            }
            else if (c == ',')
            {
                cells.Add(cell.ToString());
                cell.Clear();
            }
            else
            {
                cell.Append(c);
            }
        }

        cells.Add(cell.ToString());
        return cells;
    }

    /// <summary>A number as BenchmarkDotNet prints it (group separators, "-" or "NA" for none).</summary>
    public static double? ParseNumber(string text)
    {
        string cleaned = text.Replace(",", string.Empty, StringComparison.Ordinal).Trim();
        return double.TryParse(cleaned, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) ? value : null;
    }

    private static string Unquote(string method) =>
        method.Length >= 2 && method[0] == '\'' && method[^1] == '\'' ? method[1..^1] : method;
}
