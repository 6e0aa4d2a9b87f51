using System;
using System.Globalization;

namespace NativePool;

/// <summary>
/// A process-wide setting read once: a runtime setting (runtimeconfig.json, or <see cref="AppContext.SetData(string, object?)"/>
/// before the first use), else an environment variable; unset or empty means the default.
/// </summary>
/// <remarks>A malformed value is never ignored: every pool construction that depends on it throws, naming it (and raises <see cref="NativePoolEventSource.SettingRejected"/>).</remarks>
internal readonly struct ProcessSetting
{
    private ProcessSetting(string source, string text)
    {
        Source = source;
        Text = text;
    }

    /// <summary>Where the value came from: the runtime setting's or the environment variable's name, and which it is.</summary>
    public string Source { get; }

    /// <summary>The value as written (null when neither place sets it).</summary>
    public string? Text { get; }

    /// <summary>Whether the setting is set to a non-empty value.</summary>
    public bool IsSet => !string.IsNullOrWhiteSpace(Text);

    /// <summary>Reads <paramref name="settingName"/> from <paramref name="getSetting"/>, else <paramref name="variable"/> from <paramref name="getEnvironment"/>.</summary>
    public static ProcessSetting Read(string settingName, string variable, Func<string, object?> getSetting, Func<string, string?> getEnvironment)
    {
        object? setting = getSetting(settingName);
        string? text = setting as string ?? (setting is IConvertible convertible ? convertible.ToString(CultureInfo.InvariantCulture) : null);
        return string.IsNullOrWhiteSpace(text)
            ? new ProcessSetting($"environment variable {variable}", getEnvironment(variable) ?? "")
            : new ProcessSetting($"runtime setting {settingName}", text);
    }

    /// <summary>The message of a value that cannot be read, accepting <paramref name="accepted"/>.</summary>
    public string Rejection(string accepted) =>
        $"The {Source} is {Quoted(Text)}, which NativePool cannot read: it accepts {accepted}. Fix or remove the value; no pool is created with it.";

    /// <summary>The value in quotes, cut after <see cref="MaximumQuotedLength"/> characters so a huge value cannot flood logs.</summary>
    internal static string Quoted(string? text) =>
        text is null || text.Length <= MaximumQuotedLength
            ? $"'{text}'"
            : $"'{text.AsSpan(0, MaximumQuotedLength)}…' ({text.Length} characters)";

    /// <summary>The most characters of a rejected value an exception message repeats.</summary>
    internal const int MaximumQuotedLength = 100;
}
