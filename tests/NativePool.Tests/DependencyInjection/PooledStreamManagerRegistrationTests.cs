using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.DependencyInjection;

/// <summary>
/// <c>AddPooledStreamManager</c>: one singleton manager shaped by <see cref="IOptions{TOptions}"/> of
/// <see cref="PooledStreamManagerOptions"/>, validated when the host starts or the manager is first resolved.
/// </summary>
public sealed class PooledStreamManagerRegistrationTests
{
    [Fact]
    public void TheManagerIsASingletonShapedByTheOptions()
    {
        var services = new ServiceCollection();
        services.AddPooledStreamManager(static options => (options.BlockSize, options.MaximumBufferSize) = (4096, 65_536));
        using ServiceProvider container = services.BuildServiceProvider(validateScopes: true);

        PooledStreamManager manager = container.GetRequiredService<PooledStreamManager>();

        Assert.Same(manager, container.GetRequiredService<PooledStreamManager>());
        Assert.NotSame(PooledStreamManager.Shared, manager);
        Assert.Equal((4096, 65_536), (manager.BlockSize, manager.MaximumBufferSize));
        Assert.Equal(nameof(PooledStreamManager), manager.Name);
        using PooledStream stream = manager.GetStream();
        stream.Write(new byte[10_000]);
        Assert.Equal(12_288, manager.BlockBytesInUse);
    }

    [Fact]
    public void IOptionsHoldsTheBoundValuesAndLaterConfigureCallsApply()
    {
        IConfiguration configuration = new ConfigurationBuilder().AddInMemoryCollection([new("Streams:BlockSize", "8192"), new("Streams:ZeroOnReturn", "true")]).Build();
        var services = new ServiceCollection();
        services.AddPooledStreamManager(configuration.GetSection("Streams"));
        services.Configure<PooledStreamManagerOptions>(static options => options.BlockSize = 16_384);
        using ServiceProvider container = services.BuildServiceProvider();

        PooledStreamManagerOptions options = container.GetRequiredService<IOptions<PooledStreamManagerOptions>>().Value;

        Assert.Equal((16_384, true), (options.BlockSize, options.ZeroOnReturn));
        Assert.Equal(16_384, container.GetRequiredService<PooledStreamManager>().BlockSize);
    }

    [Fact]
    public void RegisteringAgainConfiguresTheSameManager()
    {
        var services = new ServiceCollection();
        services.AddPooledStreamManager(static options => options.BlockSize = 8192);
        services.AddPooledStreamManager(static options => options.ThrowExceptionOnToArray = true);
        using ServiceProvider container = services.BuildServiceProvider();

        PooledStreamManager manager = Assert.Single(container.GetServices<PooledStreamManager>());

        Assert.Equal((8192, true), (manager.BlockSize, manager.ThrowExceptionOnToArray));
    }

    [Fact]
    public void AnOptionOutOfRangeFailsOptionsValidationWhenTheManagerIsFirstResolved()
    {
        var services = new ServiceCollection();
        services.AddPooledStreamManager(static options => options.BlockSize = 1000);
        using ServiceProvider container = services.BuildServiceProvider();

        OptionsValidationException exception = Assert.Throws<OptionsValidationException>(() => container.GetRequiredService<PooledStreamManager>());

        Assert.Equal(typeof(PooledStreamManagerOptions), exception.OptionsType);
        Assert.Equal("PooledStreamManagerOptions.BlockSize is 1000: BlockSize must be a power of two from 1 KiB to 64 MiB.", exception.Message);
    }

    [Fact]
    public async Task AnOptionOutOfRangeFailsTheHostsStart()
    {
        HostApplicationBuilder builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection([new("Streams:BlockSize", "4096")]);
        builder.Services.AddPooledStreamManager(builder.Configuration.GetSection("Streams"));
        builder.Services.PostConfigure<PooledStreamManagerOptions>(static options => options.MaximumStreamCapacity = -1);
        using IHost host = builder.Build();

        OptionsValidationException exception = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Contains("PooledStreamManagerOptions.MaximumStreamCapacity is -1: ", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ANullServiceCollectionThrows()
    {
        Assert.Equal("services", Assert.Throws<ArgumentNullException>(static () => PooledStreamManagerServiceCollectionExtensions.AddPooledStreamManager(null!)).ParamName);
        Assert.Equal("services", Assert.Throws<ArgumentNullException>(static () => PooledStreamManagerServiceCollectionExtensions.AddPooledStreamManager(null!, new ConfigurationBuilder().Build())).ParamName);
    }
}
