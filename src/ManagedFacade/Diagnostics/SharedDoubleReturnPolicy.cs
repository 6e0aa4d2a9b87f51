using System;

namespace NativePool;

/// <summary>What <see cref="StripedArrayPool{T}.Shared"/> does on a double return, for the whole process, read once at the first shared array pool. A malformed value stops only the shared array pools (and writers made without a pool) that read it.</summary>
internal static class SharedDoubleReturnPolicy
{
    /// <summary>The runtime setting's name.</summary>
    public const string SettingName = "NativePool.SharedDoubleReturnPolicy";

    /// <summary>The environment variable read when the runtime setting is not there.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_SHARED_DOUBLE_RETURN";

    /// <summary>Report: replacing <c>ArrayPool&lt;T&gt;.Shared</c> must not make working code throw, so the shared pool keeps the array once and writes an event.</summary>
    public const PoolMisusePolicy Default = PoolMisusePolicy.Report;

    private const string Accepted = "Throw, Report or Ignore (any case)";

    private static readonly ProcessSettingValue<PoolMisusePolicy> s_setting =
        ProcessSettingValue<PoolMisusePolicy>.Read(static () => Read(AppContext.GetData, Environment.GetEnvironmentVariable));

    /// <summary>The process's policy.</summary>
    /// <exception cref="InvalidOperationException">The setting holds a value that is not a policy.</exception>
    public static PoolMisusePolicy Value => s_setting.Value;

    /// <summary>The policy <paramref name="getSetting"/> (the runtime setting) or else <paramref name="getEnvironment"/> names; <see cref="Default"/> when neither is set.</summary>
    /// <exception cref="InvalidOperationException">The value is not a policy; the message names the setting and the value.</exception>
    internal static PoolMisusePolicy Read(Func<string, object?> getSetting, Func<string, string?> getEnvironment)
    {
        ProcessSetting setting = ProcessSetting.Read(SettingName, EnvironmentVariable, getSetting, getEnvironment);
        if (!setting.IsSet)
        {
            return Default;
        }

        switch (setting.Text!.Trim().ToUpperInvariant())
        {
            case "THROW":
                return PoolMisusePolicy.Throw;
            case "REPORT":
                return PoolMisusePolicy.Report;
            case "IGNORE":
                return PoolMisusePolicy.Ignore;
            default:
                ThrowHelper.ThrowInvalidOperation(setting.Rejection(Accepted) + " It stops StripedArrayPool<T>.Shared and writers made without a pool; every other pool and stream works.");
                return Default;
        }
    }
}
