using System.IO;

namespace NativePool.IntegrationTests.Infrastructure;

/// <summary>The clone the tests run from: the first folder above the test assembly that holds NativePool.sln.</summary>
internal static class RepositoryRoot
{
    private static readonly Lazy<string> s_path = new(Find);

    /// <summary>The repository's root folder.</summary>
    public static string Path => s_path.Value;

    private static string Find()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(directory.FullName, "NativePool.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No NativePool.sln above {AppContext.BaseDirectory}.");
    }
}
