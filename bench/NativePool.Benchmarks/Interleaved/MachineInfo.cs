using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>The machine line of the interleaved results: CPU model, cores, OS, runtime, and the load when the run began.</summary>
public sealed record MachineInfo(string Processor, int LogicalCores, string OperatingSystem, string Runtime, double? LoadAverage, DateTimeOffset Date)
{
    /// <summary>A 1-minute load average above this at start gets a warning: the numbers may carry other work's noise.</summary>
    public const double IdleLoadAverage = 0.5;

    public static MachineInfo Capture() => new(
        ReadProcessor(),
        Environment.ProcessorCount,
        RuntimeInformation.OSDescription,
        $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.ProcessArchitecture})",
        ReadLoadAverage(),
        DateTimeOffset.Now);

    public string Line =>
        $"{Processor}, {LogicalCores} logical cores, {OperatingSystem}, {Runtime}";

    /// <summary>The warning to print, or null when the machine looked idle (or the load is unknown).</summary>
    public string? LoadWarning => LoadAverage > IdleLoadAverage
        ? string.Create(CultureInfo.InvariantCulture, $"WARNING: the 1-minute load average is {LoadAverage:0.00} (above {IdleLoadAverage:0.0}): other work shares the machine, so these numbers are noisier than a goal judgement needs.")
        : null;

    /// <summary>The model name from /proc/cpuinfo, or the processor architecture where there is none.</summary>
    private static string ReadProcessor()
    {
        try
        {
            string? line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal));
            if (line is not null && line.IndexOf(':', StringComparison.Ordinal) is int colon and >= 0)
            {
                return line[(colon + 1)..].Trim();
            }
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }

        return RuntimeInformation.ProcessArchitecture.ToString();
    }

    private static double? ReadLoadAverage()
    {
        try
        {
            string first = File.ReadAllText("/proc/loadavg").Split(' ')[0];
            return double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out double load) ? load : null;
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }
}
