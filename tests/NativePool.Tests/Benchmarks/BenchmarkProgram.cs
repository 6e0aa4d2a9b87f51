using System.IO;
using System.Reflection;

namespace NativePool.Tests.Benchmarks;

/// <summary>Runs the benchmark program (built by the project reference, in this assembly's configuration) and collects its output.</summary>
internal static class BenchmarkProgram
{
    /// <summary>Runs the program with <paramref name="arguments"/>; fails the test when it outlives <paramref name="timeout"/>.</summary>
    public static (int ExitCode, string Log) Run(TimeSpan timeout, params string[] arguments) =>
        ChildProcess.Run("dotnet", workingDirectory: null, timeout, ["exec", Find(), .. arguments]);

    /// <summary>Runs the program with <paramref name="arguments"/> and <paramref name="environment"/> set for it.</summary>
    public static (int ExitCode, string Log) Run(TimeSpan timeout, IReadOnlyDictionary<string, string> environment, params string[] arguments) =>
        ChildProcess.Run("dotnet", workingDirectory: null, timeout, ["exec", Find(), .. arguments], environment);

    /// <summary>The last <paramref name="lines"/> lines of <paramref name="text"/>.</summary>
    public static string Tail(string text, int lines) => ChildProcess.Tail(text, lines);

    /// <summary>The benchmark program built in the same configuration as this test assembly.</summary>
    private static string Find()
    {
        string configuration = typeof(BenchmarkProgram).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        string program = Path.Combine(RepositoryRoot.Find(), "bench", "NativePool.Benchmarks", "bin", configuration, "net10.0", "NativePool.Benchmarks.dll");
        Assert.True(File.Exists(program), $"{program} is missing: build bench/NativePool.Benchmarks in {configuration} first.");
        return program;
    }
}
