using System.IO;
using System.Reflection;
using NativePool.IntegrationTests.Infrastructure;

namespace NativePool.Tests.Benchmarks;

/// <summary>Runs the benchmark program (built by the project reference, in this assembly's configuration) and collects its output.</summary>
internal static class BenchmarkProgram
{
    /// <summary>Runs the program with <paramref name="arguments"/>; fails the test when it outlives <paramref name="timeout"/>.</summary>
    public static (int ExitCode, string Log) Run(TimeSpan timeout, params string[] arguments) =>
        new ProcessRunner(output: null, timeout).Run("dotnet", Environment.CurrentDirectory, ["exec", Find(), .. arguments]);

    public static string Tail(string text, int lines) => ProcessRunner.Tail(text, lines);

    /// <summary>The benchmark program built in the same configuration as this test assembly.</summary>
    private static string Find()
    {
        string configuration = typeof(BenchmarkProgram).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        string program = Path.Combine(RepositoryRoot.Path, "bench", "NativePool.Benchmarks", "bin", configuration, "net10.0", "NativePool.Benchmarks.dll");
        Assert.True(File.Exists(program), $"{program} is missing: build bench/NativePool.Benchmarks in {configuration} first.");
        return program;
    }
}
