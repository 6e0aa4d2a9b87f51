using System.Globalization;
using System.IO;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The command line of the interleaved A/B runner, chosen by <c>--ab</c>:
/// <c>--ab [--rounds N] [--filter SUBSTRING] [--quick | --dry] [--report PATH]</c>.
/// </summary>
/// <remarks>
/// <c>--report PATH</c> names docs/benchmarks.md (which <c>./build.sh bench</c> passes): the table goes between its
/// interleaved markers and, whole, into benchmarks-interleaved.md beside it. A dry run writes no file.
/// </remarks>
public sealed class InterleavedOptions
{
    public const string Switch = "--ab";

    public RoundSettings Settings { get; private set; } = RoundSettings.Default;

    /// <summary>Case-insensitive substring a scenario's name must contain, or null for every scenario.</summary>
    public string? Filter { get; private set; }

    public string? ReportPath { get; private set; }

    public static bool IsRequested(IReadOnlyList<string> args) => args.Contains(Switch, StringComparer.Ordinal);

    /// <summary>Parses the arguments; throws <see cref="ArgumentException"/> on anything it does not know.</summary>
    public static InterleavedOptions Parse(IReadOnlyList<string> args)
    {
        var options = new InterleavedOptions();
        int? rounds = null;
        for (int i = 0; i < args.Count; i++)
        {
            switch (args[i])
            {
                case Switch:
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
                case "--filter" when i + 1 < args.Count:
                    options.Filter = args[++i];
                    break;
                case "--report" when i + 1 < args.Count:
                    options.ReportPath = Path.GetFullPath(args[++i]);
                    break;
                default:
                    throw new ArgumentException(
                        $"Unknown or incomplete option '{args[i]}'. Usage: --ab [--rounds N] [--filter SUBSTRING] [--quick | --dry] [--report PATH]",
                        nameof(args));
            }
        }

        if (rounds is int count)
        {
            options.Settings = options.Settings with { Rounds = count };
        }

        return options;
    }

    public bool Selects(InterleavedScenario scenario) =>
        Filter is null || scenario.Name.Contains(Filter, StringComparison.OrdinalIgnoreCase);
}
