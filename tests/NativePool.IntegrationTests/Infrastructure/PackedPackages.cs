using System.IO;
using System.Text.Json;
using NativePool.Tests;

namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>
/// The NativePool, NativePool.Extensions.DependencyInjection and NativePool.AspNetCore packages packed from this clone,
/// as <c>./build.sh pack</c> packs them (Release, continuous-integration paths, the version git gives), into a temporary
/// feed, and a package cache for the apps built on them; both are deleted with the fixture. Packed once per test run,
/// on first use, for every test of the <see cref="DotnetBuilds"/> collection (an xunit collection fixture).
/// </summary>
public sealed class PackedPackages : IDisposable
{
    private static readonly string[] s_projects =
    [
        Path.Combine("src", "ManagedFacade", "ManagedFacade.csproj"),
        Path.Combine("src", "NativePool.Extensions.DependencyInjection", "NativePool.Extensions.DependencyInjection.csproj"),
        Path.Combine("src", "NativePool.AspNetCore", "NativePool.AspNetCore.csproj"),
    ];

    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    private readonly string _root;
    private readonly Lazy<(int ExitCode, string Log)> _pack;

    public PackedPackages()
    {
        _root = Path.Combine(Path.GetTempPath(), "nativepool-packages-" + Guid.NewGuid().ToString("N"));
        Folder = Path.Combine(_root, "feed");
        PackageCache = Path.Combine(_root, "packages");
        _pack = new(Pack);
    }

    /// <summary>The folder that holds the .nupkg and .snupkg files.</summary>
    public string Folder { get; }

    /// <summary>
    /// The package cache (<c>NUGET_PACKAGES</c>) the apps built on the packages restore into: new with the fixture, so the
    /// packed version is new to it and nothing is left in the machine's cache, and shared by the apps, so each package
    /// of the usual feed is extracted once per run.
    /// </summary>
    public string PackageCache { get; }

    /// <summary>Packs (the first time) and returns the path of the package <paramref name="id"/>; fails when packing failed.</summary>
    public string PackagePath(string id)
    {
        (int exitCode, string log) = _pack.Value;
        Assert.True(exitCode == 0, $"dotnet pack exited with {exitCode}:\n{ChildProcess.Tail(log, 40)}");
        // NativePool.*.nupkg also matches NativePool.AspNetCore.* and the others: the version is what starts with a digit.
        return Assert.Single(Directory.GetFiles(Folder, id + ".*.nupkg"), path => char.IsAsciiDigit(Path.GetFileName(path)[id.Length + 1]));
    }

    /// <summary>The version of the package <paramref name="id"/>, from its file name.</summary>
    public string Version(string id) => Path.GetFileNameWithoutExtension(PackagePath(id))[(id.Length + 1)..];

    /// <inheritdoc />
    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    /// <summary>
    /// Packs the three projects with one <c>dotnet pack</c> of a solution filter that lists them, so the projects they
    /// share (the engine, the drop-ins, the analyzers) are restored, checked and built once, not once per package.
    /// </summary>
    private (int ExitCode, string Log) Pack()
    {
        Directory.CreateDirectory(Folder);
        string root = RepositoryRoot.Find();
        string filter = Path.Combine(_root, "packages.slnf");
        File.WriteAllText(filter, JsonSerializer.Serialize(new { solution = new { path = Path.Combine(root, "NativePool.sln"), projects = s_projects } }));
        return ChildProcess.Run(
            "dotnet",
            root,
            s_timeout,
            ["pack", filter, "-c", "Release", $"-p:PackageOutputPath={Folder}", "-p:ContinuousIntegrationBuild=true", "-nodeReuse:false"]);
    }
}
