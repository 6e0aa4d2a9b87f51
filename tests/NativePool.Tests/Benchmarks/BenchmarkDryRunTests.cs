using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;
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
        string program = FindBenchmarkProgram();
        string artifacts = Path.Combine(Path.GetTempPath(), "nativepool-bench-dry-" + Guid.NewGuid().ToString("N"));
        string report = Path.Combine(artifacts, "benchmarks.md");
        try
        {
            (int exitCode, string log) = Run(program, "--job", "dry", "--inProcess", "--quick", "--artifacts", artifacts, "--report", report);

            Assert.True(exitCode == 0, $"The benchmark program exited with {exitCode}. Last output:\n{Tail(log, 60)}");
            Assert.True(File.Exists(report), "The results document was not written.");
            string document = File.ReadAllText(report);
            Assert.Contains("## Goals (issue 5)", document, StringComparison.Ordinal);
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

    private (int ExitCode, string Log) Run(string program, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("exec");
        start.ArgumentList.Add(program);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var log = new StringBuilder();
        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Append(log, e.Data);
        process.ErrorDataReceived += (_, e) => Append(log, e.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        if (!process.WaitForExit(s_timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            Assert.Fail($"The dry run did not finish in {s_timeout}. Last output:\n{Tail(log.ToString(), 60)}");
        }

        process.WaitForExit();
        string text;
        lock (log)
        {
            text = log.ToString();
        }

        _output.WriteLine(Tail(text, 200));
        return (process.ExitCode, text);
    }

    private static void Append(StringBuilder log, string? line)
    {
        if (line is not null)
        {
            lock (log)
            {
                log.AppendLine(line);
            }
        }
    }

    private static string Tail(string text, int lines) =>
        string.Join('\n', text.Split('\n').TakeLast(lines));

    /// <summary>The benchmark program built in the same configuration as this test assembly (the project reference builds it).</summary>
    private static string FindBenchmarkProgram()
    {
        string configuration = typeof(BenchmarkDryRunTests).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "NativePool.sln")))
        {
            directory = directory.Parent;
        }

        Assert.True(directory is not null, "The repository root (NativePool.sln) was not found above " + AppContext.BaseDirectory);
        string program = Path.Combine(directory!.FullName, "bench", "NativePool.Benchmarks", "bin", configuration, "net10.0", "NativePool.Benchmarks.dll");
        Assert.True(File.Exists(program), $"{program} is missing: build bench/NativePool.Benchmarks in {configuration} first.");
        return program;
    }
}
