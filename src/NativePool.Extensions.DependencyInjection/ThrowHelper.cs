using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The registration's throws and their messages, out of line so the registration methods stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowEmptyName(string paramName) =>
        throw new ArgumentException("The pool's name must not be empty: it keys the pool and names its options.", paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowUnknownConfigurationKey(string key, string optionsType, string[] optionNames) =>
        throw new InvalidOperationException(
            $"The configuration key '{key}' is not an option {optionsType} takes from configuration; those are: {string.Join(", ", optionNames)}.");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowConfigurationSectionNotValue(string key, string optionsType) =>
        throw new InvalidOperationException(
            $"The configuration at '{key}' is a section, not a value: every {optionsType} option is a single value.");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowMissingConfigurationValue(string key, string optionsType) =>
        throw new InvalidOperationException(
            $"The configuration key '{key}' has no value (a JSON null or an empty object), which no {optionsType} option reads: remove the key to keep the default.");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowEmptyConfigurationValue(string key, string optionsType) =>
        throw new InvalidOperationException(
            $"The configuration value '' at '{key}' cannot be read as its {optionsType} value: it is empty (remove the key to keep the default).");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowMalformedConfigurationValue(string key, string? value, string optionsType, Exception inner) =>
        throw new InvalidOperationException(
            value is null
                ? $"The configuration at '{key}' cannot be bound to {optionsType}: {inner.Message}"
                : $"The configuration value '{value}' at '{key}' cannot be read as its {optionsType} value: {inner.Message}",
            inner);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowConfigurationValueOutOfRange(string optionName, string key, string? value, string reason) =>
        throw new ArgumentOutOfRangeException(
            optionName, value, $"The configuration value '{value}' at '{key}' is out of range: {reason}");
}
