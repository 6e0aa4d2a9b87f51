using System.IO;
using Xunit.Abstractions;

namespace NativePool.Tests.Benchmarks;

/// <summary>
/// Runs every benchmark once (BenchmarkDotNet's dry job, in-process, reduced parameter sets) so a benchmark that throws,
/// fails validation or breaks the results document fails the test run. It measures nothing.
/// </summary>
public class BenchmarkDryRunTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(8);

    private readonly ITestOutputHelper _output;

    public BenchmarkDryRunTests(ITestOutputHelper output) => _output = output;

    [Fact]
    [Trait("Category", "Bench")]
    public void EveryBenchmarkRunsADryJobAndTheResultsDocumentIsWritten()
    {
        string artifacts = Path.Combine(Path.GetTempPath(), "nativepool-bench-dry-" + Guid.NewGuid().ToString("N"));
        string report = Path.Combine(artifacts, "benchmarks.md");
        try
        {
            (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--job", "dry", "--inProcess", "--quick", "--artifacts", artifacts, "--report", report);

            _output.WriteLine(BenchmarkProgram.Tail(log, 200));
            Assert.True(exitCode == 0, $"The benchmark program exited with {exitCode}. Last output:\n{BenchmarkProgram.Tail(log, 60)}");
            Assert.True(File.Exists(report), "The results document was not written.");
            string document = File.ReadAllText(report);
            Assert.Contains("## Goals", document, StringComparison.Ordinal);
            Assert.DoesNotContain("| failed |", document, StringComparison.Ordinal);

            // Every suite ran, so every goal finds both of its rows: a renamed row label would show up here.
            Assert.DoesNotContain("not measured", document, StringComparison.Ordinal);
            foreach (string suite in new[] { "Buffers.", "Objects.", "Contention.", "Ours." })
            {
                Assert.Contains($"`{suite}", document, StringComparison.Ordinal);
            }
        }
        finally
        {
            if (Directory.Exists(artifacts))
            {
                Directory.Delete(artifacts, recursive: true);
            }
        }
    }
}
