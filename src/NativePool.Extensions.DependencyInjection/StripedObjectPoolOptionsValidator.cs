using System;
using System.Globalization;
using Microsoft.Extensions.Options;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>
/// Validates <see cref="StripedObjectPoolOptions"/> as the options pattern does (when a host starts with
/// <c>ValidateOnStart</c>, else when the options are first read), with the rules a pool applies when it is created.
/// </summary>
internal sealed class StripedObjectPoolOptionsValidator : IValidateOptions<StripedObjectPoolOptions>
{
    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, StripedObjectPoolOptions options)
    {
        try
        {
            options.Validate();
            return ValidateOptionsResult.Success;
        }
        catch (ArgumentOutOfRangeException exception)
        {
            return ValidateOptionsResult.Fail(
                $"StripedObjectPoolOptions.{exception.ParamName} is {Value(options, exception.ParamName)}: {Reason(exception)}");
        }
    }

    /// <summary>The message of <paramref name="exception"/> without the "(Parameter '…')" the runtime appends to it.</summary>
    internal static string Reason(ArgumentException exception)
    {
        string message = exception.Message;
        if (string.IsNullOrEmpty(exception.ParamName))
        {
            return message;
        }

        // What the runtime appends, in the current culture: the message of an exception whose own message is empty.
        string suffix = new ArgumentException(string.Empty, exception.ParamName).Message;
        return message.EndsWith(suffix, StringComparison.Ordinal) ? message[..^suffix.Length] : message;
    }

    /// <summary>The value of the option <paramref name="optionName"/> (one that <see cref="PoolOptions.Validate"/> checks), as text.</summary>
    private static string Value(StripedObjectPoolOptions options, string? optionName) => optionName switch
    {
        nameof(StripedObjectPoolOptions.MaximumRetained) => options.MaximumRetained.ToString(CultureInfo.InvariantCulture),
        nameof(StripedObjectPoolOptions.MisusePolicy) => options.MisusePolicy.ToString(),
        nameof(PoolOptions.TrimInterval) => options.TrimInterval.ToString("c", CultureInfo.InvariantCulture),
        nameof(PoolOptions.TrimAge) => options.TrimAge.ToString("c", CultureInfo.InvariantCulture),
        _ => "out of range",
    };
}
