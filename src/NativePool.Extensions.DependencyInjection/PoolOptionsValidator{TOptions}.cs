using System;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>
/// Validates a pool's options as the options pattern does (when a host starts with <c>ValidateOnStart</c>, else when the
/// options are first read), with the rules the pool applies when it is created.
/// </summary>
/// <remarks>One instance per options type validates every named instance of it; the failure names the option, the options' name, the value and the rule.</remarks>
/// <typeparam name="TOptions">The options type.</typeparam>
internal sealed class PoolOptionsValidator<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] TOptions> : IValidateOptions<TOptions>
    where TOptions : class
{
    /// <summary>A validator that applies <paramref name="rule"/>.</summary>
    /// <param name="rule">Throws <see cref="ArgumentOutOfRangeException"/>, whose ParamName is the option's name, for a value out of range.</param>
    public PoolOptionsValidator(Action<TOptions> rule) => Rule = rule;

    /// <summary>The rule the pool applies when it is created; the registrations from configuration check with it too.</summary>
    public Action<TOptions> Rule { get; }

    /// <summary>Validates the options named <paramref name="name"/> with this validator when the host starts, else when they are first read.</summary>
    public void AddTo(IServiceCollection services, string name)
    {
        services.AddOptions<TOptions>(name).ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<TOptions>>(this));
    }

    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        try
        {
            Rule(options);
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
