using System.IO;

namespace NativePool.Benchmarks;

/// <summary>
/// The options this program handles itself; everything else goes to BenchmarkDotNet's command line
/// (<c>--filter</c>, <c>--job</c>, <c>--inProcess</c>, <c>--list</c>, …).
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><c>--full</c>: BenchmarkDotNet's default job instead of the short one.</item>
/// <item><c>--quick</c>: reduced parameter sets (for the dry job in the test run).</item>
/// <item><c>--report PATH</c>: after the run, write the results document (tables, machine line, goals) to PATH.</item>
/// <item><c>--report-only</c>: run nothing; rewrite the document from the results already exported.</item>
/// </list>
/// Without <c>--filter</c> (or another selection or listing option) everything runs.
/// </remarks>
public sealed class BenchOptions
{
    private static readonly string[] s_selectionOptions =
        ["--filter", "-f", "--list", "--help", "-h", "-?", "--info", "--version", "--allCategories", "--anyCategories", "--attribute", "-a"];

    public bool Full { get; private set; }

    public bool Quick { get; private set; }

    public bool ReportOnly { get; private set; }

    public string? ReportPath { get; private set; }

    /// <summary>The BenchmarkDotNet artifacts directory (results, logs, counters): <c>--artifacts</c> or ./BenchmarkDotNet.Artifacts.</summary>
    public string ArtifactsPath { get; private set; } = Path.GetFullPath("BenchmarkDotNet.Artifacts");

    /// <summary>Whether the command line chose a job (<c>--job</c>/<c>-j</c>); the default short (or full) job is then only its base.</summary>
    public bool HasJob { get; private set; }

    /// <summary>The arguments for BenchmarkDotNet.</summary>
    public IReadOnlyList<string> BenchmarkArguments { get; private set; } = [];

    public static BenchOptions Parse(IReadOnlyList<string> args)
    {
        var options = new BenchOptions();
        var rest = new List<string>();
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            switch (arg)
            {
                case "--full":
                    options.Full = true;
                    break;
                case "--quick":
                    options.Quick = true;
                    break;
                case "--report-only":
                    options.ReportOnly = true;
                    break;
                case "--report" when i + 1 < args.Count:
                    options.ReportPath = Path.GetFullPath(args[++i]);
                    break;
                case "--report":
                    throw new ArgumentException("--report needs a path.", nameof(args));
                default:
                    if ((arg is "--artifacts") && i + 1 < args.Count)
                    {
                        options.ArtifactsPath = Path.GetFullPath(args[i + 1]);
                    }

                    options.HasJob |= arg is "--job" or "-j";
                    rest.Add(arg);
                    break;
            }
        }

        if (!rest.Any(a => s_selectionOptions.Contains(a, StringComparer.Ordinal)))
        {
            rest.Add("--filter");
            rest.Add("*");
        }

        options.BenchmarkArguments = rest;
        return options;
    }
}
