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
            // The shared array pool and what rents from it by default (a writer given no pool), and nothing else: streams
            // rent their block lists from a pool of their own, writers given a pool use that pool, metrics read no policy.
            AssertRejected(uses[$"shared-array-{use}"], "NATIVEPOOL_SHARED_DOUBLE_RETURN", "Thorw");
            AssertRejected(uses[$"writer-over-shared-{use}"], "NATIVEPOOL_SHARED_DOUBLE_RETURN", "Thorw");
            AssertRejected(uses[$"shared-array-statistics-{use}"], "NATIVEPOOL_SHARED_DOUBLE_RETURN", "Thorw");
            foreach (string works in new[] { "create-array", "shared-memory", "shared-native-block", "shared-native-struct", "shared-streams", "shared-streams-write", "create-streams-write", "writer-over-create", "metrics" })
            {
                Assert.Equal("ok", uses[$"{works}-{use}"]);
            }
        }
    }

    [Fact]
    public void AMalformedRetainedBytesLimitFailsEveryPoolThatCountsAgainstItTheDocumentedWay()
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_RETAINED_BYTES_LIMIT", "lots");

        foreach (int use in new[] { 1, 2 })
        {
            foreach (string pool in new[] { "create-array", "shared-array", "shared-memory", "shared-native-block", "shared-native-struct", "shared-streams", "shared-streams-write", "create-streams-write", "writer-over-create", "writer-over-shared", "shared-array-statistics" })
            {
                AssertRejected(uses[$"{pool}-{use}"], "NATIVEPOOL_RETAINED_BYTES_LIMIT", "lots");
            }

            // The meter configures nothing: it leaves the budget's instruments out.
            Assert.Equal("ok", uses[$"metrics-{use}"]);
        }
    }

    [Fact]
    public void AGuardedSwitchThatIsNotASwitchFailsEveryPoolTheDocumentedWay()
    {
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_GUARDED", "yes");

        foreach (int use in new[] { 1, 2 })
        {
            // The pools that can guard their items; memory and native pools and the meter do not read it.
            foreach (string pool in new[] { "create-array", "shared-array", "shared-streams", "shared-streams-write", "create-streams-write", "writer-over-create", "writer-over-shared", "shared-array-statistics" })
            {
                AssertRejected(uses[$"{pool}-{use}"], "NATIVEPOOL_GUARDED", "yes");
            }

            foreach (string works in new[] { "shared-memory", "shared-native-block", "shared-native-struct", "metrics" })
            {
                Assert.Equal("ok", uses[$"{works}-{use}"]);
            }
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

        Assert.Equal(2 * 12, uses.Count);
        Assert.All(uses, use => Assert.True(use.Value == "ok", $"{use.Key}: {use.Value}"));
    }

    [Fact]
    public void TheGuardedSwitchSetInCodeBeforeTheFirstPoolGuardsIt()
    {
        Dictionary<string, string> uses = RunProbe(null, null, "--guarded-switch");

        Assert.Equal("True", uses["create-array-tracking"]);
    }

    [Fact]
    public void AHugeMalformedValueIsNotCopiedWholeIntoTheMessage()
    {
        string huge = "x" + new string('y', 5000);
        Dictionary<string, string> uses = RunProbe("NATIVEPOOL_SHARED_DOUBLE_RETURN", huge);

        AssertRejected(uses["shared-array-1"], "NATIVEPOOL_SHARED_DOUBLE_RETURN", huge[..100]);
        Assert.DoesNotContain(huge[..101], uses["shared-array-1"], StringComparison.Ordinal);
        Assert.Contains("5001 characters", uses["shared-array-1"], StringComparison.Ordinal);
    }

    private static void AssertRejected(string outcome, string variable, string value)
    {
        Assert.StartsWith("InvalidOperationException: ", outcome, StringComparison.Ordinal);
        Assert.Contains(variable, outcome, StringComparison.Ordinal);
        Assert.Contains(value, outcome, StringComparison.Ordinal);
    }

    /// <summary>Runs the probe with <paramref name="variable"/> set to <paramref name="value"/> (or nothing set); each printed use by name.</summary>
    private static Dictionary<string, string> RunProbe(string? variable, string? value, params string[] arguments)
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

        (int exitCode, string log) = ChildProcess.Run("dotnet", null, s_timeout, [probe, .. arguments], environment);
        Assert.True(exitCode == 0, $"The probe exited with {exitCode}:\n{log}");
        return log.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split(": ", 2))
            .Where(parts => parts.Length == 2)
            .ToDictionary(parts => parts[0], parts => parts[1]);
    }
}
