namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>
/// The tests that build the libraries from source with the dotnet CLI (a pack, a trimmed publish): they write the same
/// obj/ and bin/ folders, so they run one at a time.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SourceBuilds
{
    /// <summary>The collection's name, for <see cref="CollectionAttribute"/>.</summary>
    public const string Name = "Builds from source";
}
