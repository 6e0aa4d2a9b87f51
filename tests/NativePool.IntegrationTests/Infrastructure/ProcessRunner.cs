using System.Diagnostics;
using System.IO;
using System.Text;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>Runs a program (the dotnet CLI, a published app) to its end and collects what it printed.</summary>
internal static class ProcessRunner
{
    /// <summary>Runs <paramref name="program"/> and returns its exit code and its output and error lines, in order.</summary>
    /// <param name="output">Where the last 100 lines are written for the test log, or null.</param>
    /// <param name="timeout">How long the program may run; past it the test fails.</param>
    /// <param name="program">The program.</param>
    /// <param name="workingDirectory">Its working directory.</param>
    /// <param name="environment">Environment variables to set, or null.</param>
    /// <param name="arguments">Its arguments, each passed as is.</param>
    public static (int ExitCode, string Log) Run(
        ITestOutputHelper? output, TimeSpan timeout, string program, string workingDirectory, IReadOnlyDictionary<string, string>? environment, params string[] arguments)
    {
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (KeyValuePair<string, string> variable in environment ?? new Dictionary<string, string>())
        {
            start.Environment[variable.Key] = variable.Value;
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
            Assert.Fail($"{program} did not finish in {timeout}:\n{Tail(Text(log), 40)}");
        }

        process.WaitForExit();
        string text = Text(log);
        output?.WriteLine(Tail(text, 100));
        return (process.ExitCode, text);
    }

    /// <summary>The last <paramref name="lines"/> lines of <paramref name="text"/>.</summary>
    public static string Tail(string text, int lines) => string.Join('\n', text.Split('\n').TakeLast(lines));

    /// <summary>The folder of NativePool.sln above the test's binaries.</summary>
    public static string FindRepositoryRoot()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "NativePool.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No NativePool.sln above {AppContext.BaseDirectory}.");
    }

    private static string Text(StringBuilder log)
    {
        lock (log)
        {
            return log.ToString();
        }
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
}
