using System.Globalization;

namespace NativePool.Tests;

/// <summary>How long each stress case runs: <c>NATIVEPOOL_STRESS_SECONDS</c> seconds, 1 when unset or not a positive number.</summary>
internal static class StressDuration
{
    /// <summary>The environment variable that sets the duration (<c>./build.sh stress</c> sets it).</summary>
    public const string Variable = "NATIVEPOOL_STRESS_SECONDS";

    /// <summary>The duration of one stress case.</summary>
    public static TimeSpan Value { get; } = Read();

    /// <summary>
    /// Whether this is a long run (30 s or more per case, as <c>./build.sh stress</c> sets): the tests sized by a count
    /// rather than a duration run their long version.
    /// </summary>
    public static bool IsLong => Value >= TimeSpan.FromSeconds(30);

    private static TimeSpan Read()
    {
        string? text = Environment.GetEnvironmentVariable(Variable);
        double seconds = double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double parsed) && parsed > 0 ? parsed : 1;
        return TimeSpan.FromSeconds(seconds);
    }
}
