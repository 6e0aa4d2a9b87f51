using System.Globalization;
using System.IO;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The command line of the interleaved A/B runner, chosen by <c>--ab</c>:
/// <c>--ab [--apps] [--rounds N] [--procs N] [--filter SUBSTRING] [--quick | --dry] [--report PATH]</c>.
/// </summary>
/// <remarks>
/// With <c>--apps</c>, <c>--report PATH</c> only locates the README beside PATH's folder: the suite's table goes between
/// the README's applications markers, and bench/app.sh composes docs/application-benchmarks.md from the printed table.
/// Otherwise <c>--report PATH</c> names docs/benchmarks.md (which <c>./build.sh bench</c> passes): the table goes between its
/// interleaved markers and, whole, into benchmarks-interleaved.md beside it. A dry run writes no file.
/// </remarks>
public sealed class InterleavedOptions
{
    public const string Switch = "--ab";

    /// <summary>Marks a process the runner started to measure one scenario of the selection (<c>--ab-child INDEX</c>) in one of its <see cref="Processes"/>: it prints a machine-readable result and writes no file.</summary>
    public const string ChildSwitch = "--ab-child";

    /// <summary>The processes a default-mode run measures in (the ratio of one process moves by more than its own band).</summary>
    public const int DefaultProcesses = 5;

    public RoundSettings Settings { get; private set; } = RoundSettings.Default;

    /// <summary>Case-insensitive substring a scenario's name must contain, or null for every scenario.</summary>
    public string? Filter { get; private set; }

    public string? ReportPath { get; private set; }

    /// <summary>Whether only the application suite runs (<c>--apps</c>): the rows whose label starts with <see cref="ApplicationPrefix"/>.</summary>
    public bool Applications { get; private set; }

    /// <summary>How the application suite's rows begin: real libraries and the call patterns real code uses.</summary>
    public const string ApplicationPrefix = "app: ";

    /// <summary>How many separate processes measure each scenario, one scenario per process: <c>--procs N</c>, else 5 in default mode; 1 in the quick and dry ones, which measure every scenario in the runner's own process.</summary>
    public int Processes { get; private set; }

    /// <summary>Whether this process is one of a multi-process run's measuring children.</summary>
    public bool IsChild => ChildScenario is not null;

    /// <summary>In a child, the index in the selection of the one scenario it measures; null in the runner's own process.</summary>
    public int? ChildScenario { get; private set; }

    public static bool IsRequested(IReadOnlyList<string> args) => args.Contains(Switch, StringComparer.Ordinal);

    /// <summary>Parses the arguments; throws <see cref="ArgumentException"/> on anything it does not know.</summary>
    public static InterleavedOptions Parse(IReadOnlyList<string> args)
    {
        var options = new InterleavedOptions();
        int? rounds = null;
        int? processes = null;
        for (int i = 0; i < args.Count; i++)
        {
            switch (args[i])
            {
                case Switch:
                    break;
                case "--apps":
                    options.Applications = true;
                    break;
                case "--quick":
                    options.Settings = RoundSettings.Quick;
                    break;
                case "--dry":
                    options.Settings = RoundSettings.Dry;
                    break;
                case "--rounds" when i + 1 < args.Count && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n > 0:
                    rounds = n;
                    i++;
                    break;
                case "--procs" when i + 1 < args.Count && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out int p) && p > 0:
                    processes = p;
                    i++;
                    break;
                case ChildSwitch when i + 1 < args.Count && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out int index):
                    options.ChildScenario = index;
                    i++;
                    break;
                case "--filter" when i + 1 < args.Count:
                    options.Filter = args[++i];
                    break;
                case "--report" when i + 1 < args.Count:
                    options.ReportPath = Path.GetFullPath(args[++i]);
                    break;
                default:
                    throw new ArgumentException(
                        $"Unknown or incomplete option '{args[i]}'. Usage: --ab [--apps] [--rounds N] [--procs N] [--filter SUBSTRING] [--quick | --dry] [--report PATH]",
                        nameof(args));
            }
        }

        if (rounds is int count)
        {
            options.Settings = options.Settings with { Rounds = count };
        }

        options.Processes = options.IsChild ? 1 : processes ?? (options.Settings.Mode == RoundSettings.Default.Mode ? DefaultProcesses : 1);

        return options;
    }

    /// <summary>
    /// Whether the run measures <paramref name="scenario"/>: the application rows with <c>--apps</c>, every other row in
    /// a full run (each row then has one home document, so no two documents show two runs of it), any row a filter names.
    /// </summary>
    public bool Selects(InterleavedScenario scenario)
    {
        bool isApplication = scenario.Name.StartsWith(ApplicationPrefix, StringComparison.Ordinal);
        return (Applications ? isApplication : Filter is not null || !isApplication)
            && (Filter is null || scenario.Name.Contains(Filter, StringComparison.OrdinalIgnoreCase));
    }
}
