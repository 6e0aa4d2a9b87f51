using System.IO;
using System.Runtime.InteropServices;
using System.Text.Json;
using BenchmarkDotNet.Environments;
using BenchmarkDotNet.Reports;

namespace NativePool.Benchmarks.Reporting;

/// <summary>What the results document says about the last run: the machine line and the job. Saved beside the CSV exports.</summary>
public sealed class RunInfo
{
    public const string FileName = "nativepool-run.json";

    private static readonly JsonSerializerOptions s_json = new() { WriteIndented = true };

    public string Processor { get; set; } = "unknown processor";

    public int LogicalCores { get; set; }

    public int? PhysicalCores { get; set; }

    public string OperatingSystem { get; set; } = RuntimeInformation.OSDescription;

    public string Runtime { get; set; } = RuntimeInformation.FrameworkDescription;

    public string BenchmarkDotNet { get; set; } = string.Empty;

    public string Job { get; set; } = string.Empty;

    public string Arguments { get; set; } = string.Empty;

    public DateTimeOffset Date { get; set; }

    /// <summary>The machine line of the document.</summary>
    public string MachineLine =>
        $"{Processor}, {LogicalCores} logical cores{(PhysicalCores is int p ? $" ({p} physical)" : string.Empty)}, {OperatingSystem}, {Runtime}, BenchmarkDotNet {BenchmarkDotNet}";

    public static void Write(string resultsDirectory, BenchOptions options, IReadOnlyList<Summary> summaries)
    {
        HostEnvironmentInfo host = summaries[0].HostEnvironmentInfo;
        var info = new RunInfo
        {
            Processor = host.CpuInfo.Value.ProcessorName ?? "unknown processor",
            LogicalCores = Environment.ProcessorCount,
            PhysicalCores = host.CpuInfo.Value.PhysicalCoreCount,
            OperatingSystem = host.OsVersion.Value ?? RuntimeInformation.OSDescription,
            Runtime = $"{RuntimeInformation.FrameworkDescription} ({host.Architecture}, {host.JitInfo})",
            BenchmarkDotNet = host.BenchmarkDotNetVersion,
            Job = string.Join("; ", summaries.SelectMany(s => s.BenchmarksCases).Select(c => c.Job.DisplayInfo).Distinct()),
            Arguments = string.Join(' ', options.BenchmarkArguments) + (options.Full ? " --full" : string.Empty) + (options.Quick ? " --quick" : string.Empty),
            Date = DateTimeOffset.Now,
        };
        Directory.CreateDirectory(resultsDirectory);
        File.WriteAllText(Path.Combine(resultsDirectory, FileName), JsonSerializer.Serialize(info, s_json));
    }

    public static RunInfo? Read(string resultsDirectory)
    {
        string path = Path.Combine(resultsDirectory, FileName);
        return File.Exists(path) ? JsonSerializer.Deserialize<RunInfo>(File.ReadAllText(path)) : null;
    }
}
