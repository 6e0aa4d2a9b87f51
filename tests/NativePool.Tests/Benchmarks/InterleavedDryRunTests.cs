using System.Globalization;
using System.IO;
using Xunit.Abstractions;

namespace NativePool.Tests.Benchmarks;

/// <summary>
/// Runs the interleaved A/B runner (<c>--ab</c>) in its dry mode, a few tiny rounds per scenario, so a scenario that
/// throws, hangs or drops out of the table fails the test run. It measures nothing and asserts nothing about speed.
/// </summary>
public class InterleavedDryRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(3);

    /// <summary>Every goal the runner must measure, by its row label.</summary>
    private static readonly string[] s_scenarios =
    [
        .. new[] { "byte", "char", "int" }.SelectMany(element => new[] { 16, 100, 4096, 10000, 1000000 }
            .Select(length => $"{element}[{length}] Rent+Return vs ArrayPool.Shared")),
        "Rent(4096)+Return vs ThreadStatic swap, one pair per call (floor)",
        "Rent(4096)+Return vs ThreadStatic swap, Rent and Return each its own call",
        "Rent(4096)+Return, Rent and Return each its own call, vs ArrayPool.Shared",
        "RentScoped(4096), body that can throw, vs our Rent + Return in a finally",
        "RentScoped(4096), body that can throw, vs ArrayPool.Shared Rent + Return in a finally",
        "Rent(4096) with Return in a finally vs raw Rent+Return",
        "Object RentScoped(), body that can throw, vs our Get + Return in a finally",
        "Object RentScoped(), body that can throw, vs DefaultObjectPool Get + Return in a finally",
        "MemoryPool RentLease(4096) in a using, body that can throw, vs our Rent + Dispose in a finally",
        "MemoryPool RentLease(4096) in a using, body that can throw, vs MemoryPool.Shared Rent + Dispose in a finally",
        "NativeBlockPool Rent(4096) in a using, body that can throw, vs the lease disposed in a finally",
        "NativeStructPool&lt;T&gt;.Shared Rent() in a using (64-byte struct), body that can throw, vs NativeMemory.AllocZeroed + Free in a finally",
        "byte[4096] Create() pool, own call site, vs ArrayPool.Shared",
        "byte[4096] Create() pool, call site shared with Shared, vs ArrayPool.Shared",
        "GetReturnSingle vs DefaultObjectPool",
        "DrainRefillSingle 8 vs DefaultObjectPool",
        "DrainRefillSingle 256 vs DefaultObjectPool",
        "DrainRefillSingle 2048 vs DefaultObjectPool",
        "GetReturnMulti 2 threads vs DefaultObjectPool",
        "DrainRefillMulti 16 × 2 threads vs DefaultObjectPool",
        "contention 32 threads × 1 held vs DefaultObjectPool",
        "contention 32 threads × 4 held vs DefaultObjectPool",
        "contention 2 threads × 1 held vs Tedd-style thread-cache pool",
        "contention 2 threads × 4 held vs Tedd-style thread-cache pool",
        "burst 1 024 × byte[4096] vs ArrayPool.Shared",
        "producer/consumer byte[4096] vs ArrayPool.Shared",
        "2 fresh threads x 1 object vs DefaultObjectPool",
        "MemoryPool Rent(4096)+Dispose vs MemoryPool.Shared",
        "MemoryPool Rent(4096)+Dispose, pool reusing owners, vs MemoryPool.Shared",
        "byte[4096] with a Verbose listener vs ArrayPool.Shared with one",
        "app: growing writer, rent bigger + copy + return, vs ArrayPool.Shared",
        "app: CommunityToolkit ArrayPoolBufferWriter growth, vs ArrayPool.Shared",
        "app: CommunityToolkit ArrayPoolBufferWriter growth, pool in an ArrayPool&lt;byte&gt; field, vs ArrayPool.Shared",
        .. new[] { "4 KiB", "8 KiB", "16 KiB", "32 KiB", "64 KiB", "128 KiB", "256 KiB", "512 KiB", "1 MiB" }
            .Select(size => $"app: copy a pooled {size} into pooled buffers of every class up to 1 MiB, vs ArrayPool.Shared"),
        "app: mixed sizes 64 B-256 KiB, vs ArrayPool.Shared",
        "app: nested rents 1 KiB &gt; 16 KiB &gt; 64 KiB, vs ArrayPool.Shared",
        "app: two 16 KiB arrays held at once, copy one into the other, vs ArrayPool.Shared",
        "app: large arrays 1 MiB and 8 MiB, touch one page each, vs ArrayPool.Shared",
        "app: async hop, rent, await Task.Yield(), return on the continuation's thread, 4 tasks, vs ArrayPool.Shared",
        "app: first use on a fresh thread, Rent(4096)+Return once per thread, vs ArrayPool.Shared",
        "app: CommunityToolkit MemoryOwner&lt;byte&gt;.Allocate(4096, pool), vs ArrayPool.Shared",
        "app: CommunityToolkit SpanOwner&lt;byte&gt;.Allocate(4096, pool), vs ArrayPool.Shared",
        "app: MessagePack Serialize through a SequencePool over the pool, vs ArrayPool.Shared",
        "app: Nerdbank.Streams Sequence&lt;byte&gt; over the pool, 64 KiB in 68 B writes, vs ArrayPool.Shared",
        "app: Pipe 64 KiB copy, StripedMemoryPool vs default pool",
        "app: JSON through a pooled IBufferWriter, StripedArrayPool vs ArrayPool",
        "NativeBlockPool.Shared Rent(4096)+Dispose vs NativeMemory.AlignedAlloc+AlignedFree",
        "NativeStructPool&lt;T&gt;.Shared Rent()+Dispose (64-byte struct) vs NativeMemory.AllocZeroed+Free",
    ];

    private readonly ITestOutputHelper _output;

    public InterleavedDryRunTests(ITestOutputHelper output) => _output = output;

    [Fact]
    [Trait("Category", "Bench")]
    public void EveryScenarioRunsADryRoundAndPrintsItsRatiosWithoutWritingTheDocuments()
    {
        string directory = Path.Combine(Path.GetTempPath(), "nativepool-ab-dry-" + Guid.NewGuid().ToString("N"));
        string report = Path.Combine(directory, "benchmarks.md");
        try
        {
            // A full run measures every row but the application suite's, which runs with --apps.
            (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--ab", "--dry", "--report", report);
            _output.WriteLine(BenchmarkProgram.Tail(log, 80));
            Assert.True(exitCode == 0, $"The interleaved runner exited with {exitCode}. Last output:\n{BenchmarkProgram.Tail(log, 60)}");
            (int appsExitCode, string appsLog) = BenchmarkProgram.Run(s_timeout, "--ab", "--apps", "--dry", "--report", report);
            _output.WriteLine(BenchmarkProgram.Tail(appsLog, 40));
            Assert.True(appsExitCode == 0, $"The application suite exited with {appsExitCode}. Last output:\n{BenchmarkProgram.Tail(appsLog, 60)}");
            foreach (string scenario in s_scenarios)
            {
                bool isApplication = scenario.StartsWith("app: ", StringComparison.Ordinal);
                Assert.True(
                    isApplication == (TableRowOrNull(log, scenario) is null),
                    $"'{scenario}' is {(isApplication ? "in the full run" : "missing from the full run")}.");
                string[] cells = TableRow(isApplication ? appsLog : log, scenario);

                // scenario | ours ns/op | peer ns/op | ratio median | band (p25–p75 in one process) | goal | alloc ours | alloc peer | status
                Assert.True(cells.Length == 9, $"The row of '{scenario}' has {cells.Length} cells.");
                double median = Number(cells[3], scenario);
                string[] band = cells[4].Split('–');
                Assert.True(band.Length == 2, $"The p25–p75 band of '{scenario}' is '{cells[4]}'.");
                double p25 = Number(band[0], scenario);
                double p75 = Number(band[1], scenario);
                // Ordered and not negative; a dry round's ratio may print as 0.000 (a peer round stalled by the scheduler).
                Assert.True(p25 >= 0 && p25 <= median && median <= p75, $"'{scenario}': p25 {p25}, median {median}, p75 {p75} are not ordered ratios.");
                Number(cells[1], scenario);
                Number(cells[2], scenario);
                Number(cells[6], scenario);
                Number(cells[7], scenario);
            }

            Assert.False(File.Exists(report), "A dry run wrote the results document.");
            Assert.False(File.Exists(Path.Combine(directory, "benchmarks-interleaved.md")), "A dry run wrote the interleaved document.");
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }

    [Fact]
    [Trait("Category", "Bench")]
    public void AMultiProcessRunMeasuresEachScenarioInProcessesOfItsOwn()
    {
        string[] scenarios =
        [
            "contention 2 threads × 1 held vs Tedd-style thread-cache pool",
            "contention 2 threads × 4 held vs Tedd-style thread-cache pool",
        ];
        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--ab", "--dry", "--procs", "2", "--filter", "contention 2 threads");
        _output.WriteLine(BenchmarkProgram.Tail(log, 40));
        Assert.True(exitCode == 0, $"The interleaved runner exited with {exitCode}. Last output:\n{BenchmarkProgram.Tail(log, 60)}");

        // Two passes over the selection, a child per scenario: four children, each measuring its one scenario, the
        // selection in order within a pass.
        string[] lines = [.. log.Split('\n').Select(line => line.Trim())];
        var children = new List<(string Header, List<string> Results)>();
        foreach (string line in lines)
        {
            if (line.StartsWith("Process ", StringComparison.Ordinal))
            {
                children.Add((line, []));
            }
            else if (children.Count != 0 && line.StartsWith('[') && line.Contains(": ratio ", StringComparison.Ordinal))
            {
                children[^1].Results.Add(line);
            }
        }

        Assert.Equal(4, children.Count);
        for (int c = 0; c < children.Count; c++)
        {
            int pass = (c / scenarios.Length) + 1;
            int scenario = c % scenarios.Length;
            Assert.Equal($"Process {pass} of 2, scenario {scenario + 1} of {scenarios.Length}:", children[c].Header);
            string result = Assert.Single(children[c].Results);
            Assert.Contains($"] {scenarios[scenario]}: ratio ", result, StringComparison.Ordinal);
        }

        foreach (string scenario in scenarios)
        {
            Assert.Equal(9, TableRow(log, scenario).Length);
        }
    }

    [Fact]
    [Trait("Category", "Bench")]
    public void AChildAskedForAScenarioOutsideItsSelectionIsRefused()
    {
        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--ab", "--dry", "--filter", "contention 2 threads × 1 held", "--ab-child", "1");
        Assert.True(exitCode == 2, $"The runner exited with {exitCode}. Last output:\n{BenchmarkProgram.Tail(log, 20)}");
        Assert.Contains("cannot measure scenario 1", log, StringComparison.Ordinal);
    }

    /// <summary>The cells of the table row whose first cell is <paramref name="scenario"/>.</summary>
    private static string[] TableRow(string log, string scenario)
    {
        string? row = TableRowOrNull(log, scenario);
        Assert.True(row is not null, $"No table row for '{scenario}'.");
        return [.. row!.Trim('|').Split('|').Select(cell => cell.Trim())];
    }

    private static string? TableRowOrNull(string log, string scenario) =>
        log.Split('\n').Select(line => line.Trim()).FirstOrDefault(line => line.StartsWith($"| {scenario} |", StringComparison.Ordinal));

    private static double Number(string text, string scenario)
    {
        Assert.True(
            double.TryParse(text, NumberStyles.Float | NumberStyles.AllowThousands, CultureInfo.InvariantCulture, out double value) && double.IsFinite(value),
            $"'{text}' in the row of '{scenario}' is not a number.");
        return value;
    }
}
