using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The registration's throws, out of line so the registration methods stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowEmptyName(string paramName) =>
        throw new ArgumentException("The pool's name must not be empty: it keys the pool and names its options.", paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowInvalidConfiguration(string message) => throw new InvalidOperationException(message);

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
