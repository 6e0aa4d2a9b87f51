using System.Diagnostics;
using System.Text;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>
/// Runs a program (dotnet, a published app) to its end with a deadline, its standard output and error merged into one
/// log that the test prints (the last 100 lines) and asserts on. Also compiled into NativePool.Tests (linked).
/// </summary>
internal sealed class ProcessRunner
{
    private readonly ITestOutputHelper? _output;
    private readonly TimeSpan _timeout;

    /// <summary>A runner that prints to <paramref name="output"/> (or nowhere) and waits up to <paramref name="timeout"/> (default five minutes).</summary>
    public ProcessRunner(ITestOutputHelper? output, TimeSpan? timeout = null)
    {
        _output = output;
        _timeout = timeout ?? TimeSpan.FromMinutes(5);
    }

    /// <summary>Runs <paramref name="program"/> in <paramref name="workingDirectory"/> and returns its exit code and log.</summary>
    public (int ExitCode, string Log) Run(string program, string workingDirectory, params string[] arguments) =>
        Run(program, workingDirectory, environment: null, arguments);

    /// <summary>
    /// Runs <paramref name="program"/> with extra <paramref name="environment"/> variables; fails the test when it does not
    /// finish in time.
    /// </summary>
    public (int ExitCode, string Log) Run(
        string program, string workingDirectory, IReadOnlyDictionary<string, string>? environment, params string[] arguments)
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
        if (!process.WaitForExit(_timeout))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            Assert.Fail($"{program} did not finish in {_timeout}:\n{Tail(Text(log), 60)}");
        }

        process.WaitForExit();
        string text = Text(log);
        _output?.WriteLine(Tail(text, 100));
        return (process.ExitCode, text);
    }

    /// <summary>The last <paramref name="lines"/> lines of <paramref name="text"/>.</summary>
    public static string Tail(string text, int lines) => string.Join('\n', text.Split('\n').TakeLast(lines));

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
