using System.IO;
using System.Reflection;

namespace NativePool.Tests.Diagnostics;

/// <summary>
/// A malformed process setting fails the documented way, at the documented moment, and only where it applies: every use
/// of a shared pool that reads it throws <see cref="InvalidOperationException"/> naming the setting and the value (never
/// a <see cref="TypeInitializationException"/>), and pools that do not read it work. A process setting is read once per
/// process, so each case runs tests/SettingsProbe in a fresh process with the setting in its environment.
/// </summary>
public sealed class MalformedSettingTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(1);

    [Fact]
    public void AMisspelledSharedDoubleReturnPolicyFailsEveryUseOfTheSharedArrayPoolAndNothingElse()
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_SHARED_DOUBLE_RETURN", "Thorw");

        foreach (int use in new[] { 1, 2 })
        {
            AssertRejected(uses[$"shared-array-{use}"], "NATIVEPOOL_SHARED_DOUBLE_RETURN", "Thorw");
            Assert.Equal("ok", uses[$"create-array-{use}"]);
            Assert.Equal("ok", uses[$"shared-memory-{use}"]);
            Assert.Equal("ok", uses[$"shared-native-block-{use}"]);
            Assert.Equal("ok", uses[$"shared-native-struct-{use}"]);
            Assert.Equal("ok", uses[$"shared-streams-{use}"]);
        }
    }

    [Fact]
    public void AMalformedRetainedBytesLimitFailsEveryPoolThatCountsAgainstItTheDocumentedWay()
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_RETAINED_BYTES_LIMIT", "lots");

        foreach (int use in new[] { 1, 2 })
        {
            foreach (string pool in new[] { "create-array", "shared-array", "shared-memory", "shared-native-block", "shared-native-struct", "shared-streams" })
            {
                AssertRejected(uses[$"{pool}-{use}"], "NATIVEPOOL_RETAINED_BYTES_LIMIT", "lots");
            }
        }
    }

    [Fact]
    public void AGuardedSwitchThatIsNotASwitchFailsEveryPoolTheDocumentedWay()
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_GUARDED", "yes");

        foreach (int use in new[] { 1, 2 })
        {
            AssertRejected(uses[$"create-array-{use}"], "NATIVEPOOL_GUARDED", "yes");
            AssertRejected(uses[$"shared-array-{use}"], "NATIVEPOOL_GUARDED", "yes");
            AssertRejected(uses[$"shared-streams-{use}"], "NATIVEPOOL_GUARDED", "yes");
        }
    }

    [Theory]
    [InlineData("1")]
    [InlineData(" on ")]
    [InlineData("TRUE")]
    [InlineData("off")]
    public void EveryDocumentedGuardedSwitchValueLetsEveryPoolWork(string value)
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_GUARDED", value);

        Assert.All(uses, use => Assert.True(use.Value == "ok", $"{use.Key}: {use.Value}"));
    }

    [Fact]
    public void WithNoSettingEveryPoolWorks()
    {
        Dictionary<string, string> uses = RunProbe(null, null);

        Assert.Equal(12, uses.Count);
        Assert.All(uses, use => Assert.True(use.Value == "ok", $"{use.Key}: {use.Value}"));
    }

    private static void AssertRejected(string outcome, string variable, string value)
    {
        Assert.StartsWith("InvalidOperationException: ", outcome, StringComparison.Ordinal);
        Assert.Contains(variable, outcome, StringComparison.Ordinal);
        Assert.Contains(value, outcome, StringComparison.Ordinal);
    }

    /// <summary>Runs the probe with <paramref name="variable"/> set to <paramref name="value"/> (or nothing set); each printed use by name.</summary>
    private static Dictionary<string, string> RunProbe(string? variable, string? value)
    {
        // The probe is built in this assembly's configuration.
        string configuration = typeof(MalformedSettingTests).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()?.Configuration ?? "Release";
        string probe = Path.Combine(RepositoryRoot.Find(), "tests", "SettingsProbe", "bin", configuration, "net10.0", "SettingsProbe.dll");
        Assert.True(File.Exists(probe), $"{probe} was not built.");

        // Neither setting may leak in from the environment the tests run in.
        var environment = new Dictionary<string, string>
        {
            ["NATIVEPOOL_SHARED_DOUBLE_RETURN"] = "",
            ["NATIVEPOOL_RETAINED_BYTES_LIMIT"] = "",
            ["NATIVEPOOL_GUARDED"] = "",
        };
        if (variable is not null)
        {
            environment[variable] = value!;
        }

        (int exitCode, string log) = ChildProcess.Run("dotnet", null, s_timeout, [probe], environment);
        Assert.True(exitCode == 0, $"The probe exited with {exitCode}:\n{log}");
        return log.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split(": ", 2))
            .Where(parts => parts.Length == 2)
            .ToDictionary(parts => parts[0], parts => parts[1]);
    }
}
