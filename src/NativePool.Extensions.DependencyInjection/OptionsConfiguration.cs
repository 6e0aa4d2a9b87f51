using System;
using System.Linq;
using Microsoft.Extensions.Configuration;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>What each options type takes from configuration (flat: a section's children are its options), checked when a registration is called. Any other key is refused, so a value in configuration is never silently ignored.</summary>
internal static class OptionsConfiguration
{
    /// <summary>The trimming options every pool takes.</summary>
    private static readonly string[] s_trimKeys = [nameof(PoolOptions.TrimmingEnabled), nameof(PoolOptions.TrimInterval), nameof(PoolOptions.TrimAge)];

    /// <summary>The shape of a striped pool's store.</summary>
    private static readonly string[] s_stripeKeys =
        [nameof(StripedPoolOptions.ItemsPerStripe), nameof(StripedPoolOptions.MaximumRetainedBytesPerSizeClass), nameof(StripedPoolOptions.StripeCount)];

    /// <summary>The options of <c>AddStripedObjectPools(IConfiguration)</c>: the provider's pools' own names and disposal are decided per pooled type.</summary>
    public static readonly string[] StripedObjectPoolKeys =
    [
        nameof(StripedObjectPoolOptions.MaximumRetained), nameof(StripedObjectPoolOptions.Guarded), nameof(StripedObjectPoolOptions.TrackLeaks),
        nameof(StripedObjectPoolOptions.MisusePolicy), .. s_trimKeys,
    ];

    /// <summary>The options of <c>AddStripedPooled</c>.</summary>
    public static readonly string[] PooledServiceKeys = [nameof(PooledServiceOptions.MaximumRetained)];

    /// <summary>The options of <c>AddStripedArrayPool</c>.</summary>
    public static readonly string[] StripedArrayPoolKeys =
    [
        nameof(StripedArrayPoolOptions.MaximumArrayLength), .. s_stripeKeys, nameof(StripedArrayPoolOptions.ClearOnReturn),
        nameof(StripedArrayPoolOptions.ClearReferencesOnReturn), nameof(StripedArrayPoolOptions.Guarded), nameof(StripedArrayPoolOptions.TrackLeaks),
        nameof(StripedArrayPoolOptions.MisusePolicy), nameof(StripedArrayPoolOptions.DoubleReturnPolicy), .. s_trimKeys, nameof(PoolOptions.Name),
    ];

    /// <summary>The options of <c>AddPooledStreamManager</c>.</summary>
    public static readonly string[] PooledStreamManagerKeys =
    [
        nameof(PooledStreamManagerOptions.BlockSize), nameof(PooledStreamManagerOptions.MaximumBufferSize), nameof(PooledStreamManagerOptions.MaximumStreamCapacity),
        .. s_stripeKeys, nameof(PooledStreamManagerOptions.ThrowExceptionOnToArray), nameof(PooledStreamManagerOptions.ZeroOnReturn),
        nameof(PooledStreamManagerOptions.Guarded), nameof(PooledStreamManagerOptions.TrackLeaks), nameof(PooledStreamManagerOptions.MisusePolicy),
        .. s_trimKeys, nameof(PoolOptions.Name),
    ];

    /// <summary>Makes a key that matches no property fail the binding rather than be skipped, for configuration that changes after the registration checked it.</summary>
    public static readonly Action<BinderOptions> RefuseUnknownKeys = static binder => binder.ErrorOnUnknownConfiguration = true;

    /// <summary>Checks <paramref name="configuration"/>'s keys against <paramref name="optionNames"/>, binds it to fresh <paramref name="options"/> with <paramref name="bind"/>
    /// and validates them with <paramref name="validate"/>; the exception names the key and the value of the first bad one.</summary>
    public static void Check<TOptions>(
        IConfiguration configuration, TOptions options, string[] optionNames, Action<IConfiguration, TOptions> bind, Action<TOptions> validate)
    {
        string optionsType = typeof(TOptions).Name;
        foreach (IConfigurationSection child in configuration.GetChildren())
        {
            // Configuration keys are case-insensitive, and so is the binder's match of a key to a property.
            if (!optionNames.Contains(child.Key, StringComparer.OrdinalIgnoreCase))
            {
                ThrowHelper.ThrowInvalidConfiguration(
                    $"The configuration key '{child.Path}' is not an option {optionsType} takes from configuration; those are: {string.Join(", ", optionNames)}.");
            }

            // The binder skips a section where it expects a value, a key with no value (JSON null or {}), and an empty
            // value: every option here is a value, and none reads "" or nothing as anything.
            if (child.Value is null)
            {
                if (child.GetChildren().Any())
                {
                    ThrowHelper.ThrowInvalidConfiguration($"The configuration at '{child.Path}' is a section, not a value: every {optionsType} option is a single value.");
                }

                ThrowHelper.ThrowInvalidConfiguration(
                    $"The configuration key '{child.Path}' has no value (a JSON null or an empty object), which no {optionsType} option reads: remove the key to keep the default.");
            }

            if (child.Value is { Length: 0 })
            {
                ThrowHelper.ThrowInvalidConfiguration(
                    $"The configuration value '' at '{child.Path}' cannot be read as its {optionsType} value: it is empty (remove the key to keep the default).");
            }
        }

        try
        {
            bind(configuration, options);
        }
        catch (InvalidOperationException exception)
        {
            // The binder's message names, in quotes, the path of the value it could not convert; the options are
            // flat, so that value is one of the section's children.
            IConfigurationSection? failed = configuration.GetChildren().FirstOrDefault(
                child => exception.Message.Contains($"'{child.Path}'", StringComparison.Ordinal));
            ThrowHelper.ThrowMalformedConfigurationValue(failed?.Path ?? (configuration as IConfigurationSection)?.Path ?? string.Empty, failed?.Value, optionsType, exception);
        }

        try
        {
            validate(options);
        }
        catch (ArgumentOutOfRangeException exception) when (exception.ParamName is not null)
        {
            IConfigurationSection option = configuration.GetSection(exception.ParamName);
            ThrowHelper.ThrowConfigurationValueOutOfRange(exception.ParamName, option.Path, option.Value, OptionValues.Reason(exception));
        }
    }
}
