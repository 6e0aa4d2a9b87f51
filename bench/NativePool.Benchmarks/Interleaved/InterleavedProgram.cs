using System.IO;
using System.Globalization;
using System.Runtime;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// <c>--ab</c>: runs the interleaved scenarios one after the other in this process, prints each result as it comes and
/// the Markdown table at the end, and (unless dry) writes the table into the documents. Exit code 1 when a scenario
/// failed, 2 on a bad command line; a missed goal is a result, not a failure.
/// </summary>
public static class InterleavedProgram
{
    public static int Run(IReadOnlyList<string> args)
    {
        InterleavedOptions options;
        try
        {
            options = InterleavedOptions.Parse(args);
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine(e.Message);
            return 2;
        }

        InterleavedScenario[] scenarios = [.. InterleavedCatalog.All().Where(options.Selects)];
        if (scenarios.Length == 0)
        {
            Console.Error.WriteLine($"No interleaved scenario contains '{options.Filter}'.");
            return 2;
        }

        RoundSettings settings = options.Settings;
        // A dry run checks that every scenario runs; a measuring run waits for the machine to settle first.
        MachineInfo machine = settings.JudgesGoals ? MachineInfo.WaitForIdle(TimeSpan.FromMinutes(3)) : MachineInfo.Capture();
        Console.WriteLine($"Interleaved A/B, {settings.Mode} mode, {settings.Rounds} rounds: {machine.Line}; GC {(GCSettings.IsServerGC ? "server" : "workstation")}");
        if (machine.LoadWarning is string warning)
        {
            Console.WriteLine(warning);
        }

        var results = new List<ScenarioResult>();
        var failures = new List<(InterleavedScenario, string)>();
        for (int i = 0; i < scenarios.Length; i++)
        {
            InterleavedScenario scenario = scenarios[i];
            try
            {
                ScenarioResult r = scenario.Measure(settings);
                results.Add(r);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{i + 1}/{scenarios.Length}] {scenario.Name}: ratio {r.RatioMedian:0.000} ({r.RatioP25:0.000}–{r.RatioP75:0.000}), goal ≤ {scenario.Goal:0.00}"));
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                failures.Add((scenario, e.GetType().Name + ": " + e.Message));
                Console.WriteLine($"[{i + 1}/{scenarios.Length}] {scenario.Name}: FAILED {e}");
            }
        }

        string table = InterleavedReport.Render(machine, settings, options.Filter, results, failures);
        Console.WriteLine();
        Console.WriteLine(table);
        if (!settings.JudgesGoals)
        {
            Console.WriteLine("Dry run: no document written.");
        }
        else if (options.ReportPath is string path)
        {
            InterleavedReport.Write(path, table);
            if (options.Filter is null)
            {
                // The README sits at the repository root, beside the docs folder of the report.
                string readme = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(path))!, "..", "README.md");
                ReadmeHeadline.Write(readme, ReadmeHeadline.Render(InterleavedReport.MachineLine(table)!, InterleavedReport.Rows(machine, settings, results)));
            }
        }

        return failures.Count == 0 ? 0 : 1;
    }
}
