using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The machine line of the interleaved results: CPU model, cores, OS, runtime, and whether the machine was idle when the
/// run began (the load average, and the other processes that were using a core's share then).
/// </summary>
public sealed record MachineInfo(
    string Processor,
    int LogicalCores,
    string OperatingSystem,
    string Runtime,
    double? LoadAverage,
    IReadOnlyList<string> BusyProcesses,
    DateTimeOffset Date)
{
    /// <summary>Another process using more than this share of one core at start makes the machine not idle.</summary>
    public const double BusyCoreShare = 0.05;

    /// <summary>A 1-minute load average above this share of the cores makes the machine not idle.</summary>
    public const double BusyLoadPerCore = 0.5;


    public static MachineInfo Capture() => new(
        ReadProcessor(),
        Environment.ProcessorCount,
        RuntimeInformation.OSDescription,
        $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.ProcessArchitecture})",
        ReadLoadAverage(),
        ReadBusyProcesses(TimeSpan.FromSeconds(1)),
        DateTimeOffset.Now);

    /// <summary>
    /// Whether the machine was idle at start: no other process used more than <see cref="BusyCoreShare"/> of a core
    /// while the runner watched, and the 1-minute load average was at most <see cref="BusyLoadPerCore"/> per core (it
    /// catches the short-lived processes a one-second watch misses: a build's compilers). The runner waits for both
    /// before it measures (<see cref="WaitForIdle"/>), and gives no verdict when they never came.
    /// </summary>
    public bool IsIdle => BusyProcesses.Count == 0 && (LoadAverage is not double load || load <= BusyLoadPerCore * LogicalCores);

    /// <summary>
    /// Captures the machine until it is idle or <paramref name="patience"/> has passed (a build that just ended leaves
    /// the load average high for a minute or two), saying what it waits for; returns the last capture.
    /// </summary>
    public static MachineInfo WaitForIdle(TimeSpan patience)
    {
        long deadline = Environment.TickCount64 + (long)patience.TotalMilliseconds;
        MachineInfo machine = Capture();
        while (!machine.IsIdle && Environment.TickCount64 < deadline)
        {
            Console.WriteLine($"Waiting for an idle machine ({machine.IdleEvidence}).");
            Thread.Sleep(TimeSpan.FromSeconds(10));
            machine = Capture();
        }

        return machine;
    }

    /// <summary>What the idle judgement rests on: the load average at start and the other busy processes.</summary>
    public string IdleEvidence
    {
        get
        {
            string load = LoadAverage is double value ? value.ToString("0.00", CultureInfo.InvariantCulture) : "unknown";
            string busy = BusyProcesses.Count == 0
                ? string.Create(CultureInfo.InvariantCulture, $"no other process above {BusyCoreShare:0%} of a core")
                : "busy: " + string.Join(", ", BusyProcesses);
            string limit = (BusyLoadPerCore * LogicalCores).ToString("0.00", CultureInfo.InvariantCulture);
            return $"1-minute load average at start {load} (idle at {limit} or less); {busy}";
        }
    }

    /// <summary>The idle statement of the results, measured rather than left to the operator.</summary>
    public string IdleStatement => $"{(IsIdle ? "yes" : "no")} ({IdleEvidence})";

    public string Line =>
        $"{Processor}, {LogicalCores} logical cores, {OperatingSystem}, {Runtime}";

    /// <summary>The warning to print, or null when the machine looked idle (or the load is unknown).</summary>
    public string? LoadWarning => IsIdle
        ? null
        : $"WARNING: the machine was not idle at start ({IdleEvidence}): other work shares it, so the table gives no verdict.";

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

    /// <summary>
    /// The other processes that used more than <see cref="BusyCoreShare"/> of a core over <paramref name="window"/>, from
    /// two readings of /proc/PID/stat (user + system ticks), as "name NN %"; empty where /proc cannot be read.
    /// </summary>
    private static IReadOnlyList<string> ReadBusyProcesses(TimeSpan window)
    {
        Dictionary<int, (string Name, long Ticks)> before = ReadProcessTicks();
        Thread.Sleep(window);
        Dictionary<int, (string Name, long Ticks)> after = ReadProcessTicks();
        const double TicksPerSecond = 100; // USER_HZ on Linux
        var busy = new List<(string Name, double Share)>();
        int parent = ReadParentProcessId();
        foreach ((int pid, (string name, long ticks)) in after)
        {
            // This process, and the one that launched it (dotnet run, waiting for it), are the benchmark itself.
            if (pid != Environment.ProcessId && pid != parent && before.TryGetValue(pid, out (string Name, long Ticks) earlier))
            {
                double share = (ticks - earlier.Ticks) / TicksPerSecond / window.TotalSeconds;
                if (share > BusyCoreShare)
                {
                    busy.Add((name, share));
                }
            }
        }

        return [.. busy.OrderByDescending(b => b.Share).Select(b => string.Create(CultureInfo.InvariantCulture, $"{b.Name} {b.Share:0%}"))];
    }

    /// <summary>The parent's process id from /proc/self/stat (the field after the state), or -1.</summary>
    private static int ReadParentProcessId()
    {
        try
        {
            string stat = File.ReadAllText("/proc/self/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(fields[1], CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return -1;
        }
    }

    private static Dictionary<int, (string Name, long Ticks)> ReadProcessTicks()
    {
        var ticks = new Dictionary<int, (string, long)>();
        try
        {
            foreach (string directory in Directory.EnumerateDirectories("/proc"))
            {
                if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out int pid))
                {
                    continue;
                }

                try
                {
                    // "pid (name) state ppid ..." — the name may hold spaces, so fields are counted after its closing parenthesis.
                    string stat = File.ReadAllText(Path.Combine(directory, "stat"));
                    int open = stat.IndexOf('(', StringComparison.Ordinal);
                    int close = stat.LastIndexOf(')');
                    string[] fields = stat[(close + 2)..].Split(' ');
                    long utime = long.Parse(fields[11], CultureInfo.InvariantCulture);
                    long stime = long.Parse(fields[12], CultureInfo.InvariantCulture);
                    ticks[pid] = (stat[(open + 1)..close], utime + stime);
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
                {
                    // The process ended between the listing and the read, or its stat is unreadable: not counted.
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
        }

        return ticks;
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
