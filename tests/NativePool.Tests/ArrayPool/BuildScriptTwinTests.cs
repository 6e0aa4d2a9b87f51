using System.IO;
using System.Text.RegularExpressions;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// build.ps1 cannot run on the build machines (no PowerShell there), so nothing but this test keeps it the twin of
/// build.sh: both must declare the same verbs, and each verb must run the same test filter and the same commands.
/// </summary>
public partial class BuildScriptTwinTests
{
    private static readonly string[] s_verbs = ["test", "stress", "huge", "repeat", "bench", "plots", "pack"];

    private readonly string _shell;
    private readonly string _powerShell;

    public BuildScriptTwinTests()
    {
        string root = RepositoryRoot.Find();
        _shell = File.ReadAllText(Path.Combine(root, "build.sh"));
        _powerShell = File.ReadAllText(Path.Combine(root, "build.ps1"));
    }

    [Fact]
    public void BothScriptsDeclareTheSameVerbs()
    {
        Assert.Equal(s_verbs, ShellVerbs().Select(match => match.Groups["verb"].Value));
        Assert.Equal(s_verbs, PowerShellVerbs().Select(match => match.Groups["verb"].Value));
    }

    [Fact]
    public void BothScriptsListTheVerbsInTheirHeaderAndUsage()
    {
        Assert.Equal(HeaderLine().Match(_shell).Groups["verbs"].Value, HeaderLine().Match(_powerShell).Groups["verbs"].Value);
        Assert.Equal(
            UsageLine().Match(_shell).Groups["usage"].Value,
            UsageLine().Match(_powerShell).Groups["usage"].Value);
        Assert.True(UsageLine().IsMatch(_shell), "build.sh has no usage line.");
        foreach (string verb in s_verbs)
        {
            Assert.Contains(verb, HeaderLine().Match(_shell).Groups["verbs"].Value, StringComparison.Ordinal);
            Assert.Contains(verb, UsageLine().Match(_shell).Groups["usage"].Value, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("test")]
    [InlineData("stress")]
    [InlineData("huge")]
    [InlineData("repeat")]
    [InlineData("bench")]
    [InlineData("plots")]
    [InlineData("pack")]
    public void EachVerbRunsTheSameFilterAndCommandsInBothScripts(string verb)
    {
        string shellBlock = Block(_shell, ShellVerbs(), verb);
        string powerShellBlock = Block(_powerShell, PowerShellVerbs(), verb);

        Assert.Equal(TestFilters(shellBlock, ShellRunTests()), TestFilters(powerShellBlock, PowerShellRunTests()));
        Assert.Equal(Commands(shellBlock), Commands(powerShellBlock));
        Assert.Equal(
            StressSecondsDefault().Match(shellBlock).Groups["seconds"].Value,
            StressSecondsDefault().Match(powerShellBlock).Groups["seconds"].Value);
    }

    [Fact]
    public void BothScriptsRunTheSameCommandsInTheSameOrder()
    {
        string[] commands = Commands(_shell);
        Assert.NotEmpty(commands);
        Assert.Equal(commands, Commands(_powerShell));
    }

    [Fact]
    public void BothScriptsCarryTheSameCommentsInTheSameOrder()
    {
        // Comments explain each step, so the same comments in the same order mean the same steps in the same order.
        string[] shellComments = Comments(_shell, "build.ps1");
        Assert.NotEmpty(shellComments);
        Assert.Equal(shellComments, Comments(_powerShell, "build.sh"));
    }

    [Fact]
    public void ThePackVerbTurnsTheVersionArgumentIntoTheVersionPropertyInBothScripts()
    {
        foreach (string block in new[] { Block(_shell, ShellVerbs(), "pack"), Block(_powerShell, PowerShellVerbs(), "pack") })
        {
            Assert.Contains("\"--version\"", block.Replace('\'', '"'), StringComparison.Ordinal);
            Assert.Contains("-p:Version=", block, StringComparison.Ordinal);
            Assert.Contains("-p:ContinuousIntegrationBuild=true", block, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void TheStressVerbDefaultsToALongerRunThanTheTestVerb()
    {
        string seconds = StressSecondsDefault().Match(Block(_shell, ShellVerbs(), "stress")).Groups["seconds"].Value;
        Assert.True(int.Parse(seconds, System.Globalization.CultureInfo.InvariantCulture) > 3, $"stress runs {seconds} s by default");
    }

    /// <summary>The text of one verb's branch: from its label to the next verb's label (or the default branch).</summary>
    private static string Block(string script, MatchCollection labels, string verb)
    {
        Match[] all = labels.ToArray();
        int index = Array.FindIndex(all, match => match.Groups["verb"].Value == verb);
        Assert.True(index >= 0, $"No branch for {verb}.");
        int start = all[index].Index;
        int end = index + 1 < all.Length ? all[index + 1].Index : script.IndexOf("    *)", start, StringComparison.Ordinal) switch
        {
            < 0 => script.IndexOf("    default {", start, StringComparison.Ordinal),
            int found => found,
        };
        return script[start..end];
    }

    /// <summary>Every comment line (not the shebang), trimmed, with the name of the other script made neutral.</summary>
    private static string[] Comments(string script, string otherScript) =>
        [.. CommentLine().Matches(script).Select(match => match.Groups["comment"].Value.TrimEnd().Replace(otherScript, "build.(twin)", StringComparison.Ordinal))];

    private static string[] TestFilters(string block, Regex runTests) =>
        [.. runTests.Matches(block).Select(match => match.Groups["filter"].Value)];

    /// <summary>
    /// Each external command (dotnet, python3) in order, written the same way for both shells: the pass-through of the
    /// remaining arguments (<c>"$@"</c>, <c>@rest</c>) and the quotes around <c>$filter</c> removed.
    /// </summary>
    private static string[] Commands(string text) =>
        [.. Command().Matches(text).Select(match => match.Value
            .Replace("\"$@\"", "", StringComparison.Ordinal)
            .Replace("@rest", "", StringComparison.Ordinal)
            .Replace("\"$filter\"", "$filter", StringComparison.Ordinal)
            .TrimEnd(' ', '\\', '`'))];

    private MatchCollection ShellVerbs() => ShellVerbLabel().Matches(_shell);

    private MatchCollection PowerShellVerbs() => PowerShellVerbLabel().Matches(_powerShell);

    [GeneratedRegex(@"^    (?<verb>[a-z]+)\)\s*$", RegexOptions.Multiline)]
    private static partial Regex ShellVerbLabel();

    [GeneratedRegex(@"^    '(?<verb>[a-z]+)' \{\s*$", RegexOptions.Multiline)]
    private static partial Regex PowerShellVerbLabel();

    [GeneratedRegex(@"^# NativePool build entry point\. Verbs: (?<verbs>[^.]+)\.", RegexOptions.Multiline)]
    private static partial Regex HeaderLine();

    [GeneratedRegex(@"usage: \./build\.(?:sh|ps1) (?<usage>\[[^""]+\])")]
    private static partial Regex UsageLine();

    [GeneratedRegex(@"^[ \t]*(?<comment># .*)$", RegexOptions.Multiline)]
    private static partial Regex CommentLine();

    [GeneratedRegex(@"run_tests ""(?<filter>[^""]+)""")]
    private static partial Regex ShellRunTests();

    [GeneratedRegex(@"(?:Run|Invoke)-Tests ""(?<filter>[^""]+)""")]
    private static partial Regex PowerShellRunTests();

    [GeneratedRegex(@"(?<![\w-])(?:dotnet|python3) [^;|\n]+")]
    private static partial Regex Command();

    [GeneratedRegex(@"NATIVEPOOL_STRESS_SECONDS(?:[^0-9\n]*?)(?<seconds>\d+)")]
    private static partial Regex StressSecondsDefault();
}
