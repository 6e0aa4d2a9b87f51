using System.Diagnostics;
using System.IO;
using System.Globalization;
using System.Runtime;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// <c>--ab</c>: runs the interleaved scenarios one after the other, prints each result as it comes and the Markdown table
/// at the end, and (unless dry) writes the table into the documents. With several processes (<c>--procs N</c>, 5 by
/// default) each scenario is measured in N processes of its own: the runner starts a copy of itself per scenario in
/// selection order, N passes over the selection, and each cell is the median of the process medians, with the lowest and
/// highest process median as its band. A process per scenario, because pools of reference item types share their
/// compiled code and its profile: in a process that ran a pool built from a policy first, a factory-built pool's inlined
/// get and return are compiled with the policy's branch hot. Exit code 1 when a scenario failed, 2 on a bad command line;
/// a missed goal is a result, not a failure.
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

        if (options.ChildScenario is int child && child >= scenarios.Length)
        {
            Console.Error.WriteLine($"The selection has {scenarios.Length} scenarios; a child cannot measure scenario {child}.");
            return 2;
        }

        RoundSettings settings = options.Settings;

        // A dry run checks that every scenario runs; a measuring run waits for the machine to settle first. A child does
        // not wait and says nothing of the machine: its parent judged it and sleeps while the child runs, and the load
        // average a child reads at start is the previous child's own.
        MachineInfo machine = settings.JudgesGoals && !options.IsChild ? MachineInfo.WaitForIdle(TimeSpan.FromMinutes(3)) : MachineInfo.Capture();
        if (!options.IsChild)
        {
            Console.WriteLine($"Interleaved A/B, {settings.Mode} mode, {settings.Rounds} rounds: {machine.Line}; GC {(GCSettings.IsServerGC ? "server" : "workstation")}");
            if (machine.LoadWarning is string warning)
            {
                Console.WriteLine(warning);
            }
        }

        var results = new List<ScenarioResult>();
        var failures = new List<(InterleavedScenario, string)>();
        if (options.Processes > 1)
        {
            MeasureInProcesses(args, options.Processes, scenarios, results, failures);
        }
        else
        {
            MeasureHere(scenarios, settings, options.ChildScenario, results, failures);
        }

        if (options.IsChild)
        {
            return failures.Count == 0 ? 0 : 1;
        }

        string table = InterleavedReport.Render(machine, settings, options.Filter ?? (options.Applications ? InterleavedOptions.ApplicationPrefix.TrimEnd() : null), results, failures);
        Console.WriteLine();
        Console.WriteLine(table);
        if (!settings.JudgesGoals)
        {
            Console.WriteLine("Dry run: no document written.");
        }
        else if (options.ReportPath is string path)
        {
            // The README sits at the repository root, beside the docs folder of the report.
            string readme = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(path))!, "..", "README.md");
            string headline = ReadmeHeadline.Render(InterleavedReport.MachineLine(table)!, InterleavedReport.Processes(table), InterleavedReport.Rows(machine, settings, results));
            if (options.Applications)
            {
                // The application suite's table leads the README; its document is composed by bench/app.sh.
                if (options.Filter is null)
                {
                    ReadmeHeadline.Write(readme, headline, ReadmeHeadline.ApplicationsBegin, ReadmeHeadline.ApplicationsEnd);
                }
            }
            else
            {
                InterleavedReport.Write(path, table);
                if (options.Filter is null)
                {
                    ReadmeHeadline.Write(readme, headline);
                }
            }
        }

        return failures.Count == 0 ? 0 : 1;
    }

    /// <summary>Measures every scenario in this process, or a child's one (<paramref name="childScenario"/>), which it also prints as one machine-readable line.</summary>
    private static void MeasureHere(
        InterleavedScenario[] scenarios, RoundSettings settings, int? childScenario, List<ScenarioResult> results, List<(InterleavedScenario, string)> failures)
    {
        bool isChild = childScenario is not null;
        int first = childScenario ?? 0;
        int end = childScenario + 1 ?? scenarios.Length;
        for (int i = first; i < end; i++)
        {
            InterleavedScenario scenario = scenarios[i];
            try
            {
                ScenarioResult r = scenario.Measure(settings);
                results.Add(r);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"[{i + 1}/{scenarios.Length}] {scenario.Name}: ratio {r.RatioMedian:0.000} ({r.RatioP25:0.000}–{r.RatioP75:0.000}), goal ≤ {scenario.Goal:0.00}; ours {r.OursNsPerOp:0.##} ns, peer {r.PeerNsPerOp:0.##} ns"));
                if (isChild)
                {
                    Console.WriteLine(ResultLine.Format(i, r));
                }
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                failures.Add((scenario, e.GetType().Name + ": " + e.Message));
                Console.WriteLine($"[{i + 1}/{scenarios.Length}] {scenario.Name}: FAILED {e}");
            }
        }
    }

    /// <summary>
    /// Runs <paramref name="processes"/> passes over the selection, a child per scenario, one child at a time, and gathers
    /// per scenario the median of its children's medians (a scenario that failed in any child is a failure).
    /// </summary>
    private static void MeasureInProcesses(
        IReadOnlyList<string> args, int processes, InterleavedScenario[] scenarios, List<ScenarioResult> results, List<(InterleavedScenario, string)> failures)
    {
        var perScenario = new List<ScenarioResult>[scenarios.Length];
        for (int s = 0; s < scenarios.Length; s++)
        {
            perScenario[s] = [];
        }

        for (int p = 1; p <= processes; p++)
        {
            for (int s = 0; s < scenarios.Length; s++)
            {
                Console.WriteLine($"Process {p} of {processes}, scenario {s + 1} of {scenarios.Length}:");
                RunChild(args, s, scenarios, perScenario);
            }
        }

        for (int s = 0; s < scenarios.Length; s++)
        {
            List<ScenarioResult> measured = perScenario[s];
            if (measured.Count != processes)
            {
                failures.Add((scenarios[s], $"measured in {measured.Count} of {processes} processes (see the output above)"));
                continue;
            }

            results.Add(Combine(scenarios[s], measured));
        }
    }

    /// <summary>Measures scenario <paramref name="index"/> of the selection in a child process and adds its result to <paramref name="perScenario"/>; passes the rest of its output on.</summary>
    private static void RunChild(IReadOnlyList<string> args, int index, InterleavedScenario[] scenarios, List<ScenarioResult>[] perScenario)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true, UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath!) == "dotnet")
        {
            start.ArgumentList.Add(typeof(InterleavedProgram).Assembly.Location);
        }

        // The same selection and settings; the children write no file (--report is the parent's) and say so.
        for (int a = 0; a < args.Count; a++)
        {
            if (args[a] == "--report" || args[a] == "--procs")
            {
                a++;
                continue;
            }

            start.ArgumentList.Add(args[a]);
        }

        start.ArgumentList.Add(InterleavedOptions.ChildSwitch);
        start.ArgumentList.Add(index.ToString(CultureInfo.InvariantCulture));
        using Process child = Process.Start(start)!;
        while (child.StandardOutput.ReadLine() is string line)
        {
            if (ResultLine.TryParse(line, scenarios, out int measured, out ScenarioResult? result))
            {
                perScenario[measured].Add(result!);
            }
            else
            {
                Console.WriteLine("  " + line);
            }
        }

        child.WaitForExit();
    }

    /// <summary>The median of the process medians, banded by the lowest and highest of them.</summary>
    private static ScenarioResult Combine(InterleavedScenario scenario, List<ScenarioResult> measured)
    {
        double[] ratios = [.. measured.Select(static r => r.RatioMedian)];
        return new ScenarioResult(
            scenario,
            Median(measured.Select(static r => r.OursNsPerOp)),
            Median(measured.Select(static r => r.PeerNsPerOp)),
            Median(ratios),
            ratios.Min(),
            ratios.Max(),
            Median(measured.Select(static r => r.OursBytesPerOp)),
            Median(measured.Select(static r => r.PeerBytesPerOp)),
            measured.Sum(static r => r.Rounds),
            measured[0].OursBuiltPerMillionGets is null ? null : Median(measured.Select(static r => r.OursBuiltPerMillionGets!.Value)),
            measured[0].PeerBuiltPerMillionGets is null ? null : Median(measured.Select(static r => r.PeerBuiltPerMillionGets!.Value)),
            measured.Count);
    }

    private static double Median(IEnumerable<double> values) => AbRunner.Quantile([.. values], 0.5);

    /// <summary>One child's result as a line the parent reads back: a marker, the scenario's index, then the figures.</summary>
    private static class ResultLine
    {
        private const string Marker = "AB-RESULT";

        public static string Format(int index, ScenarioResult r) => string.Join(
            '\t',
            Marker,
            index.ToString(CultureInfo.InvariantCulture),
            R(r.OursNsPerOp),
            R(r.PeerNsPerOp),
            R(r.RatioMedian),
            R(r.RatioP25),
            R(r.RatioP75),
            R(r.OursBytesPerOp),
            R(r.PeerBytesPerOp),
            r.Rounds.ToString(CultureInfo.InvariantCulture),
            r.OursBuiltPerMillionGets is double ours ? R(ours) : "-",
            r.PeerBuiltPerMillionGets is double peer ? R(peer) : "-");

        public static bool TryParse(string line, InterleavedScenario[] scenarios, out int index, out ScenarioResult? result)
        {
            index = -1;
            result = null;
            string[] f = line.Split('\t');
            if (f.Length != 12 || f[0] != Marker || !int.TryParse(f[1], NumberStyles.None, CultureInfo.InvariantCulture, out index) ||
                (uint)index >= (uint)scenarios.Length)
            {
                return false;
            }

            result = new ScenarioResult(
                scenarios[index],
                D(f[2]),
                D(f[3]),
                D(f[4]),
                D(f[5]),
                D(f[6]),
                D(f[7]),
                D(f[8]),
                int.Parse(f[9], CultureInfo.InvariantCulture),
                f[10] == "-" ? null : D(f[10]),
                f[11] == "-" ? null : D(f[11]));
            return true;
        }

        private static string R(double value) => value.ToString("R", CultureInfo.InvariantCulture);

        private static double D(string text) => double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
    }
}
