using System;

namespace NativePool;

/// <summary>
/// What <see cref="StripedArrayPool{T}.Shared"/> does when it sees a double return, chosen for the whole process, read
/// once when the first shared array pool is created.
/// </summary>
/// <remarks>
/// The runtime setting <see cref="SettingName"/> (runtimeconfig.json <c>configProperties</c>, a
/// <c>RuntimeHostConfigurationOption</c> item in the project, or <see cref="AppContext.SetData(string, object?)"/>
/// before the first use), else the environment variable <see cref="EnvironmentVariable"/>, with the value
/// <c>Throw</c>, <c>Report</c> or <c>Ignore</c> (any case). Unset, empty or any other value means <see cref="Default"/>.
/// </remarks>
internal static class SharedDoubleReturnPolicy
{
    /// <summary>The runtime setting's name.</summary>
    public const string SettingName = "NativePool.SharedDoubleReturnPolicy";

    /// <summary>The environment variable read when the runtime setting is not there.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_SHARED_DOUBLE_RETURN";

    /// <summary>
    /// <see cref="PoolMisusePolicy.Report"/>: replacing <c>ArrayPool&lt;T&gt;.Shared</c> must not make working code start
    /// throwing, so the shared pool keeps the array once, writes the <c>DoubleReturn</c> event and carries on.
    /// </summary>
    public const PoolMisusePolicy Default = PoolMisusePolicy.Report;

    /// <summary>The process's policy.</summary>
    public static readonly PoolMisusePolicy Value = Read(AppContext.GetData, Environment.GetEnvironmentVariable);

    /// <summary>Reads the policy from <paramref name="getSetting"/> (the runtime setting) or else <paramref name="getEnvironment"/>.</summary>
    /// <param name="getSetting">Reads a runtime setting by name.</param>
    /// <param name="getEnvironment">Reads an environment variable by name.</param>
    /// <returns>The policy the values name, or <see cref="Default"/>.</returns>
    internal static PoolMisusePolicy Read(Func<string, object?> getSetting, Func<string, string?> getEnvironment)
    {
        string? value = getSetting(SettingName) as string;
        if (string.IsNullOrWhiteSpace(value))
        {
            value = getEnvironment(EnvironmentVariable);
        }

        return value?.Trim().ToUpperInvariant() switch
        {
            "THROW" => PoolMisusePolicy.Throw,
            "REPORT" => PoolMisusePolicy.Report,
            "IGNORE" => PoolMisusePolicy.Ignore,
            _ => Default,
        };
    }
}
