using System.IO;
using System.Text.RegularExpressions;
using NativePool.Tests;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>
/// A throw-away consumer project, outside the repository, that references a packed package (not the project): the
/// packages' feed of <see cref="PackedPackages"/> is added as a source by a NuGet.config (next to the configured ones),
/// and packages restore into the fixture's package cache, so the freshly packed package is the one used.
/// </summary>
internal sealed class PackedConsumer : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(8);

    private readonly ITestOutputHelper _output;
    private readonly string _root;
    private readonly string _packageCache;

    private PackedConsumer(ITestOutputHelper output, string root, string packageVersion, string packageCache)
    {
        _output = output;
        _root = root;
        PackageVersion = packageVersion;
        _packageCache = packageCache;
    }

    /// <summary>The version of the packed NativePool package.</summary>
    public string PackageVersion { get; }

    /// <summary>The consumer project's folder.</summary>
    public string ProjectDirectory => Path.Combine(_root, "consumer");

    /// <summary>Lays out an empty consumer of the packages in <paramref name="packages"/> (packing them, the first time).</summary>
    /// <param name="output">Where the child processes' logs go.</param>
    /// <param name="packages">The packed packages: their feed and the package cache the consumer restores into.</param>
    public static PackedConsumer Create(ITestOutputHelper output, PackedPackages packages)
    {
        string version = packages.Version("NativePool");
        string root = Path.Combine(Path.GetTempPath(), "nativepool-consumer-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path.Combine(root, "consumer"));
        File.WriteAllText(Path.Combine(root, "NuGet.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <add key="nativepool-local" value="{packages.Folder}" />
              </packageSources>
            </configuration>
            """);
        return new PackedConsumer(output, root, version, packages.PackageCache);
    }

    /// <summary>Writes the project file: a net10.0 library referencing one packed package, NativePool unless told otherwise.</summary>
    /// <param name="packageId">The package the consumer references (every package of the feed has NativePool's version), or null for none.</param>
    /// <param name="otherItems">Further items of the project's item group (a project reference, say).</param>
    public void WriteProject(string? packageId = "NativePool", string otherItems = "")
        => File.WriteAllText(Path.Combine(ProjectDirectory, "Consumer.csproj"), ProjectText(packageId, otherItems));

    /// <summary>The text of a net10.0 library project referencing <paramref name="packageId"/> (if any) at the packages' version, with <paramref name="otherItems"/>.</summary>
    public string ProjectText(string? packageId, string otherItems = "") => $"""
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <TargetFramework>net10.0</TargetFramework>
            <Nullable>enable</Nullable>
            <ImplicitUsings>disable</ImplicitUsings>
          </PropertyGroup>
          <ItemGroup>
            {(packageId is null ? "" : $"<PackageReference Include=\"{packageId}\" Version=\"{PackageVersion}\" />")}
            {otherItems}
          </ItemGroup>
        </Project>
        """;

    /// <summary>Writes a source file of the consumer.</summary>
    public void WriteSource(string fileName, string text) => File.WriteAllText(Path.Combine(ProjectDirectory, fileName), text);

    /// <summary>Runs a plain <c>dotnet build</c> of the consumer and returns its exit code and log.</summary>
    /// <param name="extraArguments">Further arguments of <c>dotnet build</c> (say <c>-warnaserror</c>).</param>
    public (int ExitCode, string Log) Build(params string[] extraArguments)
        => Run(
            _output, ProjectDirectory, new Dictionary<string, string> { ["NUGET_PACKAGES"] = _packageCache },
            ["build", "-c", "Release", "-nodeReuse:false", .. extraArguments]);

    /// <summary>Runs <c>dotnet format analyzers</c> on the consumer with <paramref name="arguments"/> and returns its exit code and log.</summary>
    public (int ExitCode, string Log) FormatAnalyzers(params string[] arguments)
        => Run(
            _output, ProjectDirectory, new Dictionary<string, string> { ["NUGET_PACKAGES"] = _packageCache },
            ["format", "analyzers", "Consumer.csproj", .. arguments]);

    /// <summary>The distinct diagnostics of <paramref name="log"/> with the given id prefix, as (file name, line, id, severity).</summary>
    public static IReadOnlyList<(string File, int Line, string Id, string Severity)> Diagnostics(string log, string idPrefix)
        => [.. Regex.Matches(log, $@"(?<file>[^/\\\s(]+\.cs)\((?<line>\d+),\d+\): (?<severity>warning|error|info) (?<id>{Regex.Escape(idPrefix)}\d+)")
            .Select(m => (m.Groups["file"].Value, int.Parse(m.Groups["line"].Value, System.Globalization.CultureInfo.InvariantCulture), m.Groups["id"].Value, m.Groups["severity"].Value))
            .Distinct()];

    private static (int ExitCode, string Log) Run(ITestOutputHelper output, string workingDirectory, IReadOnlyDictionary<string, string>? environment, params string[] arguments)
    {
        (int exitCode, string log) = ChildProcess.Run("dotnet", workingDirectory, s_timeout, arguments, environment);
        output.WriteLine(ChildProcess.Tail(log, 100));
        return (exitCode, log);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }
}
