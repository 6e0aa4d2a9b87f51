using NativePool.Tests.Benchmarks;

namespace NativePool.Tests.Diagnostics;

/// <summary>
/// A process started with a process-wide setting NativePool cannot read fails at its first pool use, naming the
/// variable and the value, instead of running as if the setting were absent. Each case is a process of its own (the
/// settings are read once per process): the benchmark program's retention child, which rents from
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c> first thing.
/// </summary>
public sealed class MalformedSettingTests
{
    [Theory]
    [InlineData("NATIVEPOOL_RETAINED_BYTES_LIMIT", "garbage")]
    [InlineData("NATIVEPOOL_RETAINED_BYTES_LIMIT", "-5")]
    [InlineData("NATIVEPOOL_RETAINED_BYTES_LIMIT", "99999999999999999999")]
    [InlineData("NATIVEPOOL_SHARED_DOUBLE_RETURN", "sometimes")]
    public void TheFirstPoolUseThrowsNamingTheVariableAndTheValue(string variable, string value)
    {
        (int exitCode, string log) = BenchmarkProgram.Run(
            TimeSpan.FromMinutes(2),
            new Dictionary<string, string> { [variable] = value },
            "--retention-child",
            "ours",
            "1");

        Assert.NotEqual(0, exitCode);
        Assert.Contains("InvalidOperationException", log, StringComparison.Ordinal);
        Assert.Contains($"environment variable {variable} is '{value}'", log, StringComparison.Ordinal);
    }
}
