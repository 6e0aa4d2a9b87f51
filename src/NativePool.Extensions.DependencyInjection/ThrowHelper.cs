using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The registration's throws and their messages, out of line so the registration methods stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentNull(string paramName) => throw new ArgumentNullException(paramName);

    /// <summary>A configuration value that the binder could not convert to its option's type (null: the section as a whole).</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowMalformedConfigurationValue(string key, string? value, Exception inner) =>
        throw new InvalidOperationException(
            value is null
                ? $"The configuration at '{key}' cannot be bound to StripedObjectPoolOptions: {inner.Message}"
                : $"The configuration value '{value}' at '{key}' cannot be read as its StripedObjectPoolOptions value: {inner.Message}",
            inner);

    /// <summary>A configuration value that was read but is out of its option's range.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowConfigurationValueOutOfRange(string optionName, string key, string? value, string reason) =>
        throw new ArgumentOutOfRangeException(
            optionName, value, $"The configuration value '{value}' at '{key}' is out of range: {reason}");
}
