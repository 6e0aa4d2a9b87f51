using System;

namespace NativePool;

/// <summary>The option checks the striped array and memory pools share; each throws naming the option.</summary>
internal static class PoolOptionValidation
{
    /// <summary>Checks the byte budget, the stripe count and the trim periods.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    public static void ValidateStripesAndTrimming(long maximumRetainedBytesPerSizeClass, int stripeCount, TimeSpan trimInterval, TimeSpan trimAge)
    {
        if (maximumRetainedBytesPerSizeClass < 1)
        {
            ThrowHelper.ThrowArgumentOutOfRange("MaximumRetainedBytesPerSizeClass", "MaximumRetainedBytesPerSizeClass must be at least 1 byte.");
        }

        if (stripeCount is < 0 or > 64 || (stripeCount & (stripeCount - 1)) != 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange("StripeCount", "StripeCount must be a power of two from 1 to 64, or 0 for the default.");
        }

        if (trimInterval < TimeSpan.FromMilliseconds(1) || trimInterval > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange("TrimInterval", "TrimInterval must be from 1 ms to 1 day.");
        }

        if (trimAge < TimeSpan.Zero || trimAge > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange("TrimAge", "TrimAge must be from 0 to 1 day.");
        }
    }
}
