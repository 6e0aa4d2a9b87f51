using System;

namespace NativePool;

/// <summary>
/// The process-wide guarded-mode switch: the runtime setting (AppContext switch) <c>NativePool.Guarded</c>, else the
/// environment variable <c>NATIVEPOOL_GUARDED</c>, read once, when the first pool is created.
/// </summary>
/// <remarks>
/// Either holds <c>1</c>, <c>true</c>, <c>on</c> (guarded) or <c>0</c>, <c>false</c>, <c>off</c> (not), in any case with
/// spaces around allowed, the same in both places. Unset or empty means off. Any other value is never ignored: every
/// pool creation throws <see cref="InvalidOperationException"/> naming the setting and the value, with a
/// <c>SettingRejected</c> event (the shared pools keep the message and throw it on every use of <c>Shared</c>).
/// </remarks>
internal static class GuardedMode
{
    /// <summary>The runtime setting's name (an AppContext switch).</summary>
    public const string SwitchName = "NativePool.Guarded";

    /// <summary>The environment variable's name.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_GUARDED";

    private const string Accepted = "1, true or on, and 0, false or off (any case)";

    private static readonly ProcessSettingValue<bool> s_setting =
        ProcessSettingValue<bool>.Read(static () => Read(AppContext.GetData, Environment.GetEnvironmentVariable));

    /// <summary>Whether every pool created in this process is guarded.</summary>
    /// <exception cref="InvalidOperationException">The setting holds a value that is not a switch.</exception>
    public static bool IsOnProcessWide => s_setting.Value;

    /// <summary>Reads the switch from <paramref name="getSetting"/> (the runtime setting) or else <paramref name="getEnvironment"/>.</summary>
    /// <exception cref="InvalidOperationException">The value is not a switch; the message names the setting and the value.</exception>
    internal static bool Read(Func<string, object?> getSetting, Func<string, string?> getEnvironment)
    {
        ProcessSetting setting = ProcessSetting.Read(SwitchName, EnvironmentVariable, getSetting, getEnvironment);
        if (!setting.IsSet)
        {
            return false;
        }

        switch (setting.Text!.Trim().ToUpperInvariant())
        {
            case "1" or "TRUE" or "ON":
                return true;
            case "0" or "FALSE" or "OFF":
                return false;
            default:
                ThrowHelper.ThrowInvalidOperation(setting.Rejection(Accepted));
                return false;
        }
    }
}
