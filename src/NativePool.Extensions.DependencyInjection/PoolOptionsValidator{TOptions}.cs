using System;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>Validates a pool's options as the options pattern does (when a host starts with <c>ValidateOnStart</c>, else when the options are first read), with the rules the pool applies when it is created, and binds them from configuration.</summary>
/// <remarks>One instance per options type validates every named instance of it; the failure names the option, the options' name, the value and the rule.</remarks>
/// <typeparam name="TOptions">The options type.</typeparam>
internal sealed class PoolOptionsValidator<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] TOptions> : IValidateOptions<TOptions>
    where TOptions : class, new()
{
    private readonly string[] _optionNames;
    private readonly Action<IConfiguration, TOptions> _bind;

    /// <summary>A validator that applies <paramref name="rule"/> (it throws <see cref="ArgumentOutOfRangeException"/> named for the option) and binds with <paramref name="bind"/>.</summary>
    /// <remarks><paramref name="bind"/> refuses unknown keys and is written where the binder's source generator sees the options' type; <paramref name="optionNames"/> are the keys taken.</remarks>
    public PoolOptionsValidator(Action<TOptions> rule, string[] optionNames, Action<IConfiguration, TOptions> bind)
    {
        Rule = rule;
        _optionNames = optionNames;
        _bind = bind;
    }

    /// <summary>The rule the pool applies when it is created; the registrations from configuration check with it too.</summary>
    public Action<TOptions> Rule { get; }

    /// <summary>Adds <paramref name="configure"/>, when given, to the options named <paramref name="name"/>, and validates them (see <see cref="AddTo"/>).</summary>
    public void Configure(IServiceCollection services, string name, Action<TOptions>? configure)
    {
        if (configure is not null)
        {
            services.Configure(name, configure);
        }

        AddTo(services, name);
    }

    /// <summary>Checks <paramref name="configuration"/> now, then binds the options named <paramref name="name"/> to it as <c>Configure&lt;TOptions&gt;(name, configuration)</c> does, reloads included, and validates them.</summary>
    public void Configure(IServiceCollection services, string name, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(configuration);
        OptionsConfiguration.Check(configuration, new TOptions(), _optionNames, _bind, Rule);

        // The registrations of the binder's generated Configure, which a generic TOptions would not reach.
        services.AddOptions();
        services.AddSingleton<IOptionsChangeTokenSource<TOptions>>(new ConfigurationChangeTokenSource<TOptions>(name, configuration));
        services.AddSingleton<IConfigureOptions<TOptions>>(new ConfigureNamedOptions<TOptions>(name, options => _bind(configuration, options)));
        AddTo(services, name);
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

    /// <summary>Validates the options named <paramref name="name"/> with this validator when the host starts, else when they are first read.</summary>
    private void AddTo(IServiceCollection services, string name)
    {
        services.AddOptions<TOptions>(name).ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<TOptions>>(this));
    }
}
