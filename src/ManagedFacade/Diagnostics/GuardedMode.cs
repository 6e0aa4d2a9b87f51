using System;

namespace NativePool;

/// <summary>The process-wide guarded-mode switch: the AppContext switch <c>NativePool.Guarded</c> or <c>NATIVEPOOL_GUARDED=1</c>.</summary>
internal static class GuardedMode
{
    /// <summary>The AppContext switch's name.</summary>
    public const string SwitchName = "NativePool.Guarded";

    /// <summary>The environment variable's name.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_GUARDED";

    /// <summary>Read once, when the first pool is created: every pool created in this process is guarded.</summary>
    public static readonly bool IsOnProcessWide = ReadSwitch();

    private static bool ReadSwitch()
    {
        if (AppContext.TryGetSwitch(SwitchName, out bool on))
        {
            return on;
        }

        string? value = Environment.GetEnvironmentVariable(EnvironmentVariable);
        return value is "1" || string.Equals(value, "true", StringComparison.OrdinalIgnoreCase);
    }
}
