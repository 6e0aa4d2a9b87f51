using System.Diagnostics;
using System.Text;
using System.Threading;

namespace NativePool.Tests;

/// <summary>Runs a program to completion and collects its output and error streams (shared by both test projects).</summary>
internal static class ChildProcess
{
    /// <summary>How long the output streams may stay open after the program has exited.</summary>
    private static readonly TimeSpan s_drainTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Runs <paramref name="program"/>; kills it and fails the test when it outlives <paramref name="timeout"/>.</summary>
    /// <param name="program">The program.</param>
    /// <param name="workingDirectory">Its working directory, or null for the current one.</param>
    /// <param name="timeout">How long it may run.</param>
    /// <param name="arguments">Its arguments, each passed as is.</param>
    /// <param name="environment">Environment variables to set for it, or null.</param>
    /// <returns>The exit code and the interleaved output and error lines.</returns>
    public static (int ExitCode, string Log) Run(
        string program, string? workingDirectory, TimeSpan timeout, IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (workingDirectory is not null)
        {
            start.WorkingDirectory = workingDirectory;
        }

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
            Assert.Fail($"{program} did not finish in {timeout}. Last output:\n{Tail(Text(log), 60)}");
        }

        // The streams end when every process that holds them has ended. A compiler server that a child build started
        // (a build run outside build.sh, which otherwise owns the server) holds them until it idles out, long after the
        // child has exited and written all it had to say; so the drain is bounded.
        using (var drained = new CancellationTokenSource(s_drainTimeout))
        {
            try
            {
                process.WaitForExitAsync(drained.Token).GetAwaiter().GetResult();
            }
            catch (OperationCanceledException)
            {
            }
        }

        return (process.ExitCode, Text(log));
    }

    /// <summary>The last <paramref name="lines"/> lines of <paramref name="text"/>.</summary>
    public static string Tail(string text, int lines) => string.Join('\n', text.Split('\n').TakeLast(lines));

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
}
