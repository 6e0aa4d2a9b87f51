using System;

namespace NativePool;

/// <summary>The process-wide guarded-mode switch of the pools that can guard their items (array, object, stream), read once at the first of them (values: docs/diagnostics.md). A malformed value is never ignored: those pools refuse to be created.</summary>
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
