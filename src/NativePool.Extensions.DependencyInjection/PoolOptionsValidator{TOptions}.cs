using System;
using Microsoft.Extensions.Options;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>
/// Validates a pool's options as the options pattern does (when a host starts with <c>ValidateOnStart</c>, else when the
/// options are first read), with the rules the pool applies when it is created.
/// </summary>
/// <remarks>
/// One instance per options type is registered, and it validates every named instance of that type. The failure names
/// the option, the options' name (when not the default one), the value and the rule it breaks.
/// </remarks>
/// <typeparam name="TOptions">The options type.</typeparam>
internal sealed class PoolOptionsValidator<TOptions> : IValidateOptions<TOptions>
    where TOptions : class
{
    private readonly Action<TOptions> _validate;

    /// <summary>A validator that applies <paramref name="validate"/>.</summary>
    /// <param name="validate">Throws <see cref="ArgumentOutOfRangeException"/>, whose ParamName is the option's name, for a value out of range.</param>
    public PoolOptionsValidator(Action<TOptions> validate) => _validate = validate;

    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        try
        {
            _validate(options);
            return ValidateOptionsResult.Success;
        }
        catch (ArgumentOutOfRangeException exception)
        {
            string of = string.IsNullOrEmpty(name) ? string.Empty : $" of '{name}'";
            return ValidateOptionsResult.Fail(
                $"{typeof(TOptions).Name}.{exception.ParamName}{of} is {OptionValues.Describe(options, exception.ParamName)}: {OptionValues.Reason(exception)}");
        }
    }
}
