using System;
using System.Globalization;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The text of an option's value and of the rule it broke, for the messages of validation failures.</summary>
internal static class OptionValues
{
    /// <summary>The value of the validated option <paramref name="optionName"/> of <paramref name="options"/>, as configuration writes it.</summary>
    public static string Describe(object options, string? optionName) => (options, optionName) switch
    {
        (PooledServiceOptions o, nameof(PooledServiceOptions.MaximumRetained)) => Text(o.MaximumRetained),
        (StripedObjectPoolOptions o, nameof(StripedObjectPoolOptions.MaximumRetained)) => Text(o.MaximumRetained),
        (StripedObjectPoolOptions o, nameof(StripedObjectPoolOptions.MisusePolicy)) => o.MisusePolicy.ToString(),
        (StripedArrayPoolOptions o, nameof(StripedArrayPoolOptions.MaximumArrayLength)) => Text(o.MaximumArrayLength),
        (StripedArrayPoolOptions o, nameof(StripedArrayPoolOptions.MisusePolicy)) => o.MisusePolicy.ToString(),
        (StripedArrayPoolOptions o, nameof(StripedArrayPoolOptions.DoubleReturnPolicy)) => o.DoubleReturnPolicy.ToString(),
        (PooledStreamManagerOptions o, nameof(PooledStreamManagerOptions.BlockSize)) => Text(o.BlockSize),
        (PooledStreamManagerOptions o, nameof(PooledStreamManagerOptions.MaximumBufferSize)) => Text(o.MaximumBufferSize),
        (PooledStreamManagerOptions o, nameof(PooledStreamManagerOptions.MaximumStreamCapacity)) => Text(o.MaximumStreamCapacity),
        (PooledStreamManagerOptions o, nameof(PooledStreamManagerOptions.MisusePolicy)) => o.MisusePolicy.ToString(),
        (StripedPoolOptions o, nameof(StripedPoolOptions.ItemsPerStripe)) => Text(o.ItemsPerStripe),
        (StripedPoolOptions o, nameof(StripedPoolOptions.MaximumRetainedBytesPerSizeClass)) => Text(o.MaximumRetainedBytesPerSizeClass),
        (StripedPoolOptions o, nameof(StripedPoolOptions.StripeCount)) => Text(o.StripeCount),
        (PoolOptions o, nameof(PoolOptions.TrimInterval)) => o.TrimInterval.ToString("c", CultureInfo.InvariantCulture),
        (PoolOptions o, nameof(PoolOptions.TrimAge)) => o.TrimAge.ToString("c", CultureInfo.InvariantCulture),
        _ => "out of range",
    };

    /// <summary>The message of <paramref name="exception"/> without the "(Parameter '…')" the runtime appends to it.</summary>
    public static string Reason(ArgumentException exception)
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

    private static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);
}
