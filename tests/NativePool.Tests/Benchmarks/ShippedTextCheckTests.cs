using System.IO;

namespace NativePool.Tests.Benchmarks;

/// <summary>
/// The shipped text agrees with the interleaved results table (the runner's <c>--check-docs</c>): the README headline is
/// the one the table renders, no shipped sentence claims a speed the table does not show, and none uses a vague speed
/// phrase ("cost too much", "as fast as") that no row can support, in README.md, docs/*.md and the packages'
/// src/*/PACKAGE.md. The other tests prove the check can fail, on copies of the documents with one thing changed.
/// </summary>
public sealed class ShippedTextCheckTests : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    private readonly string _copy = Path.Combine(Path.GetTempPath(), "nativepool-docs-check-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_copy))
        {
            Directory.Delete(_copy, recursive: true);
        }
    }

    [Fact]
    public void TheShippedTextAgreesWithTheInterleavedTable()
    {
        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", RepositoryRoot.Find());

        Assert.True(exitCode == 0, "The shipped text disagrees with docs/benchmarks-interleaved.md:\n" + log);
    }

    [Fact]
    public void AHeadlineThatDiffersFromTheTableFailsTheCheck()
    {
        CopyDocuments();
        string readme = Path.Combine(_copy, "README.md");
        string text = File.ReadAllText(readme);
        int headline = text.IndexOf("<!-- headline:begin -->", StringComparison.Ordinal);
        int row = text.IndexOf("| GetReturnSingle vs DefaultObjectPool |", headline, StringComparison.Ordinal);
        Assert.True(headline >= 0 && row > headline, "The README has no headline row for GetReturnSingle to alter.");
        File.WriteAllText(readme, text[..row] + "| GetReturnSingle vs DefaultObjectPool | ≤ 0.40 | 0.01 (0.01–0.01) | 0 / 0 | met |\n" + text[row..]);

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains("README.md: the headline is not the one the results table renders", log, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("NativePool is faster than ArrayPool.", "claims speed without a <!-- claim: SCENARIO --> marker")]
    [InlineData("A finally is faster. <!-- claim: Rent(4096) with Return in a finally vs raw Rent+Return -->", "claims speed, but the table's 'Rent(4096) with Return in a finally vs raw Rent+Return' has a band reaching")]
    [InlineData("It outperforms the peer. <!-- claim: no such scenario -->", "claims speed without a <!-- claim: SCENARIO --> marker")]
    public void ASpeedClaimTheTableDoesNotShowFailsTheCheck(string sentence, string expected)
    {
        CopyDocuments();
        File.AppendAllText(Path.Combine(_copy, "docs", "design.md"), Environment.NewLine + sentence + Environment.NewLine);

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains("docs/design.md:", log, StringComparison.Ordinal);
        Assert.Contains(expected, log, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("For the hot paths where the built-in pools cost too much.", "cost too much")]
    [InlineData("A pool that COSTS TOO MUCH is replaced.", "COSTS TOO MUCH")]
    [InlineData("Independent pools are as fast as the shared one.", "as fast as")]
    [InlineData("It is as cheap as a field.", "as cheap as")]
    [InlineData("The built-in pool is too slow here.", "too slow")]
    [InlineData("Renting is too expensive there.", "too expensive")]
    [InlineData("A blazing-fast pool.", "blazing-fast")]
    [InlineData("Lightning fast rents.", "Lightning fast")]
    public void AVagueSpeedPhraseFailsTheCheck(string sentence, string phrase)
    {
        CopyDocuments();
        File.AppendAllText(Path.Combine(_copy, "docs", "choosing.md"), Environment.NewLine + sentence + Environment.NewLine);

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains($"docs/choosing.md:", log, StringComparison.Ordinal);
        Assert.Contains($"uses the vague speed phrase '{phrase}'", log, StringComparison.Ordinal);
    }

    [Fact]
    public void AVagueSpeedPhraseFailsTheCheckEvenWithAMarkerNamingARowOursWins()
    {
        CopyDocuments();
        File.AppendAllText(
            Path.Combine(_copy, "README.md"),
            Environment.NewLine + "Handing buffers across threads is as fast as it gets. <!-- claim: producer/consumer byte[4096] vs ArrayPool.Shared -->" + Environment.NewLine);

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains("README.md:", log, StringComparison.Ordinal);
        Assert.Contains("uses the vague speed phrase 'as fast as'", log, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Use it where ArrayPool costs too much.", "uses the vague speed phrase 'costs too much'")]
    [InlineData("NativePool is faster than ArrayPool.", "claims speed without a <!-- claim: SCENARIO --> marker")]
    public void ASpeedClaimOnAPackagePageFailsTheCheck(string sentence, string expected)
    {
        CopyDocuments();
        string page = Path.Combine(_copy, "src", "ManagedFacade", "PACKAGE.md");
        Assert.True(File.Exists(page), "The copy has no src/ManagedFacade/PACKAGE.md to plant the claim in.");
        File.AppendAllText(page, Environment.NewLine + sentence + Environment.NewLine);

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains(Path.Combine("src", "ManagedFacade", "PACKAGE.md") + ":", log, StringComparison.Ordinal);
        Assert.Contains(expected, log, StringComparison.Ordinal);
    }

    [Fact]
    public void ASpeedClaimInAnXmlDocCommentFailsTheCheck()
    {
        CopyDocuments();
        string source = Path.Combine(_copy, "src", "Claims.cs");
        Directory.CreateDirectory(Path.GetDirectoryName(source)!);
        File.WriteAllText(source, "/// <summary>Quicker than the runtime's pool.</summary>\npublic static class Claims { }\n");

        (int exitCode, string log) = BenchmarkProgram.Run(s_timeout, "--check-docs", _copy);

        Assert.Equal(1, exitCode);
        Assert.Contains("src/Claims.cs:1: claims speed", log, StringComparison.Ordinal);
    }

    /// <summary>Copies README.md, docs/*.md and the packages' src/*/PACKAGE.md (the documents the check reads) into a fresh folder.</summary>
    private void CopyDocuments()
    {
        string root = RepositoryRoot.Find();
        Directory.CreateDirectory(Path.Combine(_copy, "docs"));
        File.Copy(Path.Combine(root, "README.md"), Path.Combine(_copy, "README.md"));
        foreach (string file in Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md"))
        {
            File.Copy(file, Path.Combine(_copy, "docs", Path.GetFileName(file)));
        }

        foreach (string project in Directory.EnumerateDirectories(Path.Combine(root, "src")))
        {
            string page = Path.Combine(project, "PACKAGE.md");
            if (File.Exists(page))
            {
                string target = Path.Combine(_copy, "src", Path.GetFileName(project));
                Directory.CreateDirectory(target);
                File.Copy(page, Path.Combine(target, "PACKAGE.md"));
            }
        }
    }
}
