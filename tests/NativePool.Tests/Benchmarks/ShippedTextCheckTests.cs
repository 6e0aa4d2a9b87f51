using System.IO;

namespace NativePool.Tests.Benchmarks;

/// <summary>
/// The shipped text agrees with the interleaved results table (the runner's <c>--check-docs</c>): the README headline is
/// the one the table renders, and no shipped sentence claims a speed the table does not show. The other tests prove the
/// check can fail, on copies of the documents with one thing changed.
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
    [InlineData("A scope is faster. <!-- claim: RentScoped(4096) lease vs raw Rent+Return -->", "claims speed, but the table's 'RentScoped(4096) lease vs raw Rent+Return' has p75")]
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

    /// <summary>Copies README.md and docs/*.md (the documents the check reads) into a fresh folder.</summary>
    private void CopyDocuments()
    {
        string root = RepositoryRoot.Find();
        Directory.CreateDirectory(Path.Combine(_copy, "docs"));
        File.Copy(Path.Combine(root, "README.md"), Path.Combine(_copy, "README.md"));
        foreach (string file in Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md"))
        {
            File.Copy(file, Path.Combine(_copy, "docs", Path.GetFileName(file)));
        }
    }
}
