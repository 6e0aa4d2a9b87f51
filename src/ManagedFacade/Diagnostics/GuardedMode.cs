using System;

namespace NativePool;

/// <summary>
/// The process-wide guarded-mode switch: the AppContext switch <c>NativePool.Guarded</c> (set in code with
/// <see cref="AppContext.SetSwitch"/> before the first pool, or as a runtime setting), else the environment variable
/// <c>NATIVEPOOL_GUARDED</c>, read once, when the first array, object or stream pool is created.
/// </summary>
/// <remarks>
/// Either holds <c>1</c>, <c>true</c>, <c>on</c> (guarded) or <c>0</c>, <c>false</c>, <c>off</c> (not), in any case with
/// spaces around allowed, the same in both places. Unset or empty means off. It applies to the pools that can guard
/// their items: array pools, object pools and stream managers (memory and native pools do not read it). Any other value
/// is never ignored: every creation of those pools throws <see cref="InvalidOperationException"/> naming the setting and
/// the value, with a <c>SettingRejected</c> event (their shared pools keep the message and throw it on every use of
/// <c>Shared</c>).
/// </remarks>
internal static class GuardedMode
{
    /// <summary>The runtime setting's name (an AppContext switch).</summary>
    public const string SwitchName = "NativePool.Guarded";

    /// <summary>The environment variable's name.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_GUARDED";

    private const string Accepted = "1, true or on, and 0, false or off (any case)";

    // AppContext.SetSwitch in code lands in the switch table, which GetData does not see: the switch is asked first.
    private static readonly ProcessSettingValue<bool> s_setting =
        ProcessSettingValue<bool>.Read(static () => AppContext.TryGetSwitch(SwitchName, out bool on) ? on : Read(AppContext.GetData, Environment.GetEnvironmentVariable));

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
