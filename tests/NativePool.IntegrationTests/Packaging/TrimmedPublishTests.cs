using System.IO;
using System.Text.RegularExpressions;
using NativePool.IntegrationTests.Infrastructure;
using NativePool.Tests;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Packaging;

/// <summary>
/// Publishes tests/TrimSmoke (an app that runs every pool through its public API) trimmed and self-contained for
/// linux-x64, with one warning per finding, and checks that the trimmer found nothing to warn about in the libraries
/// (no IL2xxx trim or IL3xxx AOT warning) and that the trimmed app still runs.
/// </summary>
[Collection(DotnetBuilds.Name)]
public partial class TrimmedPublishTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    private readonly ITestOutputHelper _output;

    public TrimmedPublishTests(ITestOutputHelper output) => _output = output;

    [Fact]
    [Trait("Category", "Packaging")]
    public void TheTrimmedSelfContainedAppPublishesWithoutTrimWarningsAndRuns()
    {
        string root = RepositoryRoot.Find();
        string output = Path.Combine(Path.GetTempPath(), "nativepool-trim-smoke-" + Guid.NewGuid().ToString("N"));
        try
        {
            (int publishExit, string publishLog) = Run(
                "dotnet",
                root,
                "publish", Path.Combine(root, "tests", "TrimSmoke", "TrimSmoke.csproj"),
                "-c", "Release", "-r", "linux-x64", "--self-contained", "-o", output,
                "-p:PublishTrimmed=true", "-p:TrimmerSingleWarn=false",

                // As ./build.sh builds and the packing fixture packs: the libraries the app references are then up to date
                // and not compiled again (18 s instead of 32 s for this publish on its own).
                "-p:ContinuousIntegrationBuild=true",
                "-nodeReuse:false");

            string[] findings = [.. TrimOrAotFinding().Matches(publishLog).Select(match => match.Value).Distinct()];
            Assert.True(findings.Length == 0, $"The trimmed publish reported {findings.Length} trim/AOT finding(s):\n{string.Join('\n', findings)}");
            Assert.True(publishExit == 0, $"dotnet publish exited with {publishExit}:\n{Tail(publishLog, 40)}");

            // Trimmed indeed: a self-contained publish without trimming would ship every framework assembly.
            Assert.True(File.Exists(Path.Combine(output, "NativePool.dll")), "NativePool.dll was not published.");
            Assert.True(File.Exists(Path.Combine(output, "NativePool.Engine.dll")), "NativePool.Engine.dll was not published.");
            Assert.True(File.Exists(Path.Combine(output, "NativePool.Extensions.DependencyInjection.dll")), "NativePool.Extensions.DependencyInjection.dll was not published.");
            Assert.False(File.Exists(Path.Combine(output, "System.Private.Xml.dll")), "The app was not trimmed.");

            (int runExit, string runLog) = Run(Path.Combine(output, "TrimSmoke"), output);
            Assert.True(runExit == 0, $"The trimmed app exited with {runExit}:\n{runLog}");
            Assert.Matches(@"^TrimSmoke: \d+ checks passed$", runLog.Trim());
        }
        finally
        {
            if (Directory.Exists(output))
            {
                Directory.Delete(output, recursive: true);
            }
        }
    }

    private (int ExitCode, string Log) Run(string program, string workingDirectory, params string[] arguments)
    {
        (int exitCode, string log) = ChildProcess.Run(program, workingDirectory, s_timeout, arguments);
        _output.WriteLine(Tail(log, 100));
        return (exitCode, log);
    }

    private static string Tail(string text, int lines) => ChildProcess.Tail(text, lines);

    /// <summary>A trim (IL2xxx) or AOT (IL3xxx) diagnostic, as a warning or as an error.</summary>
    [GeneratedRegex(@"[^\n]*\b(?:warning|error) IL[23]\d{3}\b[^\n]*")]
    private static partial Regex TrimOrAotFinding();
}
