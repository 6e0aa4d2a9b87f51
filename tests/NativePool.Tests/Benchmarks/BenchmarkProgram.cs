using System.Diagnostics;
using System.IO;
using System.Reflection;
using System.Text;

namespace NativePool.Tests.Benchmarks;

/// <summary>Runs the benchmark program (built by the project reference, in this assembly's configuration) and collects its output.</summary>
internal static class BenchmarkProgram
{
    /// <summary>Runs the program with <paramref name="arguments"/>; fails the test when it outlives <paramref name="timeout"/>.</summary>
    public static (int ExitCode, string Log) Run(TimeSpan timeout, params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add("exec");
        start.ArgumentList.Add(Find());
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
        if (!process.WaitForExit(timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            Assert.Fail($"The benchmark program did not finish in {timeout}. Last output:\n{Tail(Text(log), 60)}");
        }

        process.WaitForExit();
        return (process.ExitCode, Text(log));
    }

    public static string Tail(string text, int lines) =>
        string.Join('\n', text.Split('\n').TakeLast(lines));

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

    private static string Text(StringBuilder log)
    {
        lock (log)
        {
            return log.ToString();
        }
    }

    /// <summary>The repository's root folder (the one holding NativePool.sln) above this test assembly.</summary>
    public static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "NativePool.sln")))
        {
            directory = directory.Parent;
        }

        Assert.True(directory is not null, "The repository root (NativePool.sln) was not found above " + AppContext.BaseDirectory);
        return directory!.FullName;
    }

    /// <summary>The benchmark program built in the same configuration as this test assembly.</summary>
    private static string Find()
    {
        string configuration = typeof(BenchmarkProgram).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        string program = Path.Combine(RepositoryRoot(), "bench", "NativePool.Benchmarks", "bin", configuration, "net10.0", "NativePool.Benchmarks.dll");
        Assert.True(File.Exists(program), $"{program} is missing: build bench/NativePool.Benchmarks in {configuration} first.");
        return program;
    }
}
