using System.IO;

namespace NativePool.Tests;

/// <summary>The checkout the tests run from (shared by both test projects).</summary>
internal static class RepositoryRoot
{
    /// <summary>The folder holding NativePool.sln, above the test assembly.</summary>
    /// <exception cref="InvalidOperationException">No such folder: the tests do not run from a checkout.</exception>
    public static string Find()
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
}
