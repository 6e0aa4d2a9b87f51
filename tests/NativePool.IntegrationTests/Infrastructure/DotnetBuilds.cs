namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>
/// Tests that run the dotnet CLI over the repository's projects: one at a time, so their builds do not race, and on
/// packages packed once for all of them (<see cref="PackedPackages"/>).
/// </summary>
[CollectionDefinition(Name)]
public sealed class DotnetBuilds : ICollectionFixture<PackedPackages>
{
    /// <summary>The collection's name.</summary>
    public const string Name = "dotnet builds";
}
