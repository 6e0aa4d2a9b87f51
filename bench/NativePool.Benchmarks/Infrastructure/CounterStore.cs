using System.Globalization;
using System.IO;
using System.Text;
using BenchmarkDotNet.Running;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// Hands threading counters from a benchmark (which may run in a child process) to the columns of the summary (in the
/// host): one small file per benchmark case in the directory named by <see cref="DirectoryVariable"/>, which the host
/// sets and the child processes inherit.
/// </summary>
/// <remarks>
/// This replaces the threading diagnoser attribute, which BenchmarkDotNet 0.14.0 rejects on .NET 10 (and the rejection stops
/// the whole run). A case's file key is its type, its method and its parameters sorted by name, so host and child
/// compute the same key independently.
/// </remarks>
public static class CounterStore
{
    /// <summary>The environment variable holding the directory of the counter files.</summary>
    public const string DirectoryVariable = "NATIVEPOOL_BENCH_COUNTERS";

    /// <summary>The key of a case, from the host's view.</summary>
    public static string KeyOf(BenchmarkCase benchmarkCase) =>
        Key(
            benchmarkCase.Descriptor.Type.Name,
            benchmarkCase.Descriptor.WorkloadMethod.Name,
            benchmarkCase.Parameters.Items.Select(p => (p.Name, (object?)p.Value)));

    /// <summary>The key of a case, from the benchmark's own view.</summary>
    public static string Key(string typeName, string methodName, IEnumerable<(string Name, object? Value)> parameters)
    {
        var builder = new StringBuilder(typeName).Append('.').Append(methodName);
        foreach ((string name, object? value) in parameters.OrderBy(p => p.Name, StringComparer.Ordinal))
        {
            builder.Append('_').Append(name).Append('-').Append(Convert.ToString(value, CultureInfo.InvariantCulture));
        }

        foreach (char invalid in Path.GetInvalidFileNameChars())
        {
            builder.Replace(invalid, '_');
        }

        return builder.ToString();
    }

    /// <summary>Writes a case's per-invocation counters (no-op when the host did not set <see cref="DirectoryVariable"/>).</summary>
    public static void Write(string key, ThreadingCounterValues values)
    {
        string? directory = Environment.GetEnvironmentVariable(DirectoryVariable);
        if (string.IsNullOrEmpty(directory))
        {
            return;
        }

        Directory.CreateDirectory(directory);
        string text = string.Create(
            CultureInfo.InvariantCulture,
            $"{values.LockContentions:R} {values.CompletedWorkItems:R} {values.Invocations}");
        File.WriteAllText(Path.Combine(directory, key + ".txt"), text);
    }

    /// <summary>Reads a case's counters, if its benchmark recorded any.</summary>
    public static bool TryRead(BenchmarkCase benchmarkCase, out ThreadingCounterValues values)
    {
        values = default;
        string? directory = Environment.GetEnvironmentVariable(DirectoryVariable);
        if (string.IsNullOrEmpty(directory))
        {
            return false;
        }

        string path = Path.Combine(directory, KeyOf(benchmarkCase) + ".txt");
        if (!File.Exists(path))
        {
            return false;
        }

        string[] parts = File.ReadAllText(path).Split(' ');
        values = new ThreadingCounterValues(
            double.Parse(parts[0], CultureInfo.InvariantCulture),
            double.Parse(parts[1], CultureInfo.InvariantCulture),
            long.Parse(parts[2], CultureInfo.InvariantCulture));
        return true;
    }
}
