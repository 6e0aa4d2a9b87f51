using System.IO;
using System.IO.Compression;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using NativePool.IntegrationTests.Infrastructure;
using NativePool.Tests;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Packaging;

/// <summary>
/// A user's app on the packed packages, installed exactly as the README says: the README's <c>nuget.config</c> adds the
/// packages' folder as a source, and the app also uses a package that only the machine's usual feed has
/// (CommunityToolkit.HighPerformance), so the build proves the usual feed was kept; the app references the
/// dependency-injection package and gets NativePool through it. Then what nuget.org shows of each package: its own README
/// with absolute links, its icon, licence and release notes; and what each package depends on, read from its nuspec.
/// </summary>
[Collection(DotnetBuilds.Name)]
[Trait("Category", "Packaging")]
public sealed partial class PackedConsumerTests
{
    /// <summary>A version the central package versions pin, served by the usual feed and not by the packages' folder.</summary>
    private const string UnrelatedPackage = "CommunityToolkit.HighPerformance";

    /// <summary>The folder path the README's nuget.config tells the user to replace.</summary>
    private const string ReadmePackagesFolder = "/absolute/path/to/NativePool/artifacts/packages";

    /// <summary>The package that registers pools with a container.</summary>
    private const string DependencyInjectionPackage = "NativePool.Extensions.DependencyInjection";

    /// <summary>The container the consumer app builds (the DI package depends on its abstractions only).</summary>
    private const string ContainerPackage = "Microsoft.Extensions.DependencyInjection";

    private static readonly string[] s_packageIds = ["NativePool", DependencyInjectionPackage, "NativePool.AspNetCore"];

    /// <summary>The target frameworks of NativePool and NativePool.Extensions.DependencyInjection.</summary>
    private static readonly string[] s_libraryFrameworks = ["net8.0", "net10.0"];

    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    private readonly PackedPackages _packages;
    private readonly ITestOutputHelper _output;

    public PackedConsumerTests(PackedPackages packages, ITestOutputHelper output)
    {
        _packages = packages;
        _output = output;
    }

    [Fact]
    public void TheReadmesNuGetConfigAddsThePackagesWithoutDroppingTheUsualFeed()
    {
        string config = ReadmeNuGetConfig();
        Assert.DoesNotContain("<clear", config, StringComparison.OrdinalIgnoreCase);

        string app = Path.Combine(Path.GetTempPath(), "nativepool-consumer-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(app);
        try
        {
            File.WriteAllText(Path.Combine(app, "nuget.config"), config.Replace(ReadmePackagesFolder, _packages.Folder, StringComparison.Ordinal));
            File.WriteAllText(
                Path.Combine(app, "MyApp.csproj"),
                ConsumerProject(_packages.Version(DependencyInjectionPackage), CentralVersion(ContainerPackage), CentralVersion(UnrelatedPackage)));
            File.WriteAllText(Path.Combine(app, "Program.cs"), ConsumerProgram);

            // The fixture's package cache: the packed version is new to it, and nothing is left in the machine's cache.
            (int exitCode, string log) = ChildProcess.Run(
                "dotnet", app, s_timeout, ["run", "-c", "Release", "--disable-build-servers", $"-p:RestorePackagesPath={_packages.PackageCache}"]);
            _output.WriteLine(ChildProcess.Tail(log, 100));

            Assert.True(exitCode == 0, $"The consumer app failed ({exitCode}):\n{ChildProcess.Tail(log, 40)}");
            Assert.Contains("consumer: 3 segments, 12288 bytes, pooled by StripedArrayPool<Byte>", log, StringComparison.Ordinal);
            Assert.Contains("consumer: the container's ObjectPoolProvider is StripedObjectPoolProvider", log, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(app, recursive: true);
        }
    }

    [Theory]
    [InlineData("NativePool")]
    [InlineData(DependencyInjectionPackage)]
    [InlineData("NativePool.AspNetCore")]
    public void EachPackageCarriesItsOwnReadmeIconLicenceAndReleaseNotes(string id)
    {
        using ZipArchive package = ZipFile.OpenRead(_packages.PackagePath(id));
        XElement metadata = Nuspec(package);

        string readme = ReadEntry(package, Element(metadata, "readme"));
        Assert.StartsWith("# " + id + "\n", readme.Replace("\r", string.Empty, StringComparison.Ordinal), StringComparison.Ordinal);
        string[] relativeLinks = [.. RelativeLink().Matches(readme).Select(match => match.Value)];
        Assert.True(relativeLinks.Length == 0, $"{id}'s README has links nuget.org cannot resolve: {string.Join(", ", relativeLinks)}");

        Assert.NotNull(package.GetEntry(Element(metadata, "icon")));
        Assert.Equal("MIT", Element(metadata, "license"));
        Assert.StartsWith(ChangelogFirstHeading(), Element(metadata, "releaseNotes"), StringComparison.Ordinal);
    }

    [Fact]
    public void ThePackagesHaveTheVersionGitGivesBothTheSame()
    {
        string[] versions = [.. s_packageIds.Select(_packages.Version).Distinct()];

        string version = Assert.Single(versions);
        Assert.Matches(@"^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$", version);
    }

    [Fact]
    public void NativePoolDependsOnObjectPoolOnlyAtItsLowestVersionForEachFramework()
    {
        Dictionary<string, Dependency[]> groups = DependencyGroups("NativePool");

        Assert.Equal(s_libraryFrameworks.Order(StringComparer.Ordinal), groups.Keys.Order(StringComparer.Ordinal));
        Assert.Equal([("Microsoft.Extensions.ObjectPool", "8.0.11")], IdsAndVersions(groups["net8.0"]));
        Assert.Equal([("Microsoft.Extensions.ObjectPool", "10.0.0")], IdsAndVersions(groups["net10.0"]));
    }

    [Fact]
    public void TheDependencyInjectionPackageDependsOnNativePoolAndTheContainerOptionsAndBinderPackages()
    {
        Dictionary<string, Dependency[]> groups = DependencyGroups(DependencyInjectionPackage);
        string nativePool = _packages.Version("NativePool");

        Assert.Equal(s_libraryFrameworks.Order(StringComparer.Ordinal), groups.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(
            [
                ("Microsoft.Extensions.Configuration.Binder", "8.0.2"),
                ("Microsoft.Extensions.DependencyInjection.Abstractions", "8.0.0"),
                ("Microsoft.Extensions.ObjectPool", "8.0.11"),
                ("Microsoft.Extensions.Options.ConfigurationExtensions", "8.0.0"),
                ("NativePool", nativePool),
            ],
            IdsAndVersions(groups["net8.0"]));
        Assert.Equal(
            [
                ("Microsoft.Extensions.Configuration.Binder", "10.0.0"),
                ("Microsoft.Extensions.DependencyInjection.Abstractions", "10.0.0"),
                ("Microsoft.Extensions.ObjectPool", "10.0.0"),
                ("Microsoft.Extensions.Options.ConfigurationExtensions", "10.0.0"),
                ("NativePool", nativePool),
            ],
            IdsAndVersions(groups["net10.0"]));

        // Nothing of NativePool is held back, its analyzers included.
        Assert.All(groups.Values, group => Assert.Null(Assert.Single(group, dependency => dependency.Id == "NativePool").Exclude));
    }

    [Fact]
    public void NativePoolAspNetCoreDependsOnNativePoolOnlyWithItsAnalyzers()
    {
        Dictionary<string, Dependency[]> groups = DependencyGroups("NativePool.AspNetCore");

        Assert.Equal(["net10.0"], groups.Keys);
        Dependency nativePool = Assert.Single(groups["net10.0"]);
        Assert.Equal(("NativePool", _packages.Version("NativePool")), (nativePool.Id, nativePool.Version));
        // No exclude="Build,Analyzers" (what a ProjectReference gets by default): the analyzers reach the web app.
        Assert.Null(nativePool.Exclude);
    }

    /// <summary>One dependency of a nuspec's group: id, version and the <c>exclude</c> attribute (null when absent).</summary>
    private readonly record struct Dependency(string Id, string Version, string? Exclude);

    private static (string Id, string Version)[] IdsAndVersions(Dependency[] group) => [.. group.Select(static dependency => (dependency.Id, dependency.Version))];

    /// <summary>The package's dependencies per target framework, each group ordered by id.</summary>
    private Dictionary<string, Dependency[]> DependencyGroups(string id)
    {
        using ZipArchive package = ZipFile.OpenRead(_packages.PackagePath(id));
        XElement dependencies = Assert.Single(Nuspec(package).Elements(), element => element.Name.LocalName == "dependencies");
        return dependencies.Elements()
            .Where(element => element.Name.LocalName == "group")
            .ToDictionary(
                group => (string)group.Attribute("targetFramework")!,
                group => group.Elements()
                    .Select(dependency => new Dependency(
                        (string)dependency.Attribute("id")!, (string)dependency.Attribute("version")!, (string?)dependency.Attribute("exclude")))
                    .OrderBy(dependency => dependency.Id, StringComparer.Ordinal)
                    .ToArray(),
                StringComparer.Ordinal);
    }

    private const string ConsumerProgram = """
        using System;
        using CommunityToolkit.HighPerformance.Buffers;
        using Microsoft.Extensions.DependencyInjection;
        using Microsoft.Extensions.ObjectPool;
        using NativePool;

        using var writer = new ArrayPoolBufferWriter<byte>(StripedArrayPool<byte>.Shared, 4096);
        for (int i = 0; i < 3; i++)
        {
            writer.GetSpan(4096)[..4096].Fill((byte)i);
            writer.Advance(4096);
        }

        Console.WriteLine($"consumer: 3 segments, {writer.WrittenCount} bytes, pooled by {StripedArrayPool<byte>.Shared.Name}");

        var services = new ServiceCollection();
        services.AddStripedObjectPools();
        using ServiceProvider provider = services.BuildServiceProvider();
        Console.WriteLine($"consumer: the container's ObjectPoolProvider is {provider.GetRequiredService<ObjectPoolProvider>().GetType().Name}");
        """;

    /// <summary>The app references the dependency-injection package (NativePool comes with it) and a container.</summary>
    private static string ConsumerProject(string dependencyInjectionVersion, string containerVersion, string unrelatedVersion) => $"""
        <Project Sdk="Microsoft.NET.Sdk">
          <PropertyGroup>
            <OutputType>Exe</OutputType>
            <TargetFramework>net10.0</TargetFramework>
            <Nullable>enable</Nullable>
            <TreatWarningsAsErrors>true</TreatWarningsAsErrors>
          </PropertyGroup>
          <ItemGroup>
            <PackageReference Include="{DependencyInjectionPackage}" Version="{dependencyInjectionVersion}" />
            <PackageReference Include="{ContainerPackage}" Version="{containerVersion}" />
            <PackageReference Include="{UnrelatedPackage}" Version="{unrelatedVersion}" />
          </ItemGroup>
        </Project>
        """;

    /// <summary>The README's <c>```xml</c> block that declares package sources.</summary>
    private static string ReadmeNuGetConfig()
    {
        string readme = File.ReadAllText(Path.Combine(RepositoryRoot.Find(), "README.md"));
        Match block = Assert.Single(XmlBlock().Matches(readme), match => match.Groups["xml"].Value.Contains("<packageSources>", StringComparison.Ordinal));
        return block.Groups["xml"].Value;
    }

    private static string CentralVersion(string id)
    {
        XDocument props = XDocument.Load(Path.Combine(RepositoryRoot.Find(), "Directory.Packages.props"));
        return props.Descendants("PackageVersion").Single(element => (string?)element.Attribute("Include") == id).Attribute("Version")!.Value;
    }

    private static string ChangelogFirstHeading()
    {
        string[] lines = File.ReadAllLines(Path.Combine(RepositoryRoot.Find(), "CHANGELOG.md"));
        return lines.First(line => line.StartsWith("## ", StringComparison.Ordinal))[3..];
    }

    private static XElement Nuspec(ZipArchive package)
    {
        ZipArchiveEntry entry = Assert.Single(package.Entries, entry => entry.FullName.EndsWith(".nuspec", StringComparison.Ordinal));
        using Stream stream = entry.Open();
        return XDocument.Load(stream).Root!.Elements().Single(element => element.Name.LocalName == "metadata");
    }

    private static string Element(XElement metadata, string name) =>
        Assert.Single(metadata.Elements(), element => element.Name.LocalName == name).Value;

    private static string ReadEntry(ZipArchive package, string path)
    {
        ZipArchiveEntry entry = Assert.IsType<ZipArchiveEntry>(package.GetEntry(path), exactMatch: false);
        using var reader = new StreamReader(entry.Open());
        return reader.ReadToEnd();
    }

    [GeneratedRegex(@"^```xml\n(?<xml>.*?)^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex XmlBlock();

    /// <summary>A Markdown link or image whose target is not an absolute http(s) URL.</summary>
    [GeneratedRegex(@"\]\((?!https?://)[^)]*\)")]
    private static partial Regex RelativeLink();
}
