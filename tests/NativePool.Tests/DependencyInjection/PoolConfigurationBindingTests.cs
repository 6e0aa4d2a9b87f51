using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using NativePool.Tests.ObjectPool;

namespace NativePool.Tests.DependencyInjection;

/// <summary>
/// Every registration that takes an <see cref="IConfiguration"/>: each option a pool takes from configuration arrives in
/// its options, and each malformed value (a word for a number, a negative size, an enum name or number the enum does not
/// define, a key that is no option) fails the registration itself, with the documented exception naming the key and the
/// value, and registers nothing.
/// </summary>
public sealed class PoolConfigurationBindingTests
{
    private const string Section = "Pools:io";

    /// <summary>The registrations from configuration, by the options type they bind.</summary>
    private static readonly Dictionary<string, Action<IServiceCollection, IConfiguration>> s_registrations = new()
    {
        [nameof(StripedArrayPoolOptions)] = static (services, section) => services.AddStripedArrayPool<byte>("io", section),
        [nameof(PooledStreamManagerOptions)] = static (services, section) => services.AddPooledStreamManager(section),
        [nameof(PooledServiceOptions)] = static (services, section) => services.AddStripedPooled<Thing>(section),
        [nameof(StripedObjectPoolOptions)] = static (services, section) => services.AddStripedObjectPools(section),
    };

    /// <summary>Each option of <c>AddStripedArrayPool</c>, a value for it other than its default, and what the options read.</summary>
    public static TheoryData<string, string, object> ArrayPoolOptions => new()
    {
        { nameof(StripedArrayPoolOptions.MaximumArrayLength), "4096", 4096 },
        { nameof(StripedArrayPoolOptions.ItemsPerStripe), "7", 7 },
        { nameof(StripedArrayPoolOptions.MaximumRetainedBytesPerSizeClass), "1048576", 1_048_576L },
        { nameof(StripedArrayPoolOptions.StripeCount), "2", 2 },
        { nameof(StripedArrayPoolOptions.ClearOnReturn), "true", true },
        { nameof(StripedArrayPoolOptions.ClearReferencesOnReturn), "True", true },
        { nameof(StripedArrayPoolOptions.Guarded), "true", true },
        { nameof(StripedArrayPoolOptions.TrackLeaks), "true", true },
        { nameof(StripedArrayPoolOptions.MisusePolicy), "Report", PoolMisusePolicy.Report },
        { nameof(StripedArrayPoolOptions.DoubleReturnPolicy), "ignore", PoolMisusePolicy.Ignore },
        { nameof(StripedArrayPoolOptions.TrimmingEnabled), "false", false },
        { nameof(StripedArrayPoolOptions.TrimInterval), "00:00:05", TimeSpan.FromSeconds(5) },
        { nameof(StripedArrayPoolOptions.TrimAge), "00:02:00", TimeSpan.FromMinutes(2) },
        { nameof(StripedArrayPoolOptions.Name), "io-buffers", "io-buffers" },
    };

    /// <summary>Each option of <c>AddPooledStreamManager</c>, a value for it other than its default, and what the options read.</summary>
    public static TheoryData<string, string, object> StreamManagerOptions => new()
    {
        { nameof(PooledStreamManagerOptions.BlockSize), "4096", 4096 },
        { nameof(PooledStreamManagerOptions.MaximumBufferSize), "1048576", 1_048_576 },
        { nameof(PooledStreamManagerOptions.MaximumStreamCapacity), "10000000", 10_000_000L },
        { nameof(PooledStreamManagerOptions.ItemsPerStripe), "3", 3 },
        { nameof(PooledStreamManagerOptions.MaximumRetainedBytesPerSizeClass), "65536", 65_536L },
        { nameof(PooledStreamManagerOptions.StripeCount), "1", 1 },
        { nameof(PooledStreamManagerOptions.ThrowExceptionOnToArray), "true", true },
        { nameof(PooledStreamManagerOptions.ZeroOnReturn), "true", true },
        { nameof(PooledStreamManagerOptions.Guarded), "true", true },
        { nameof(PooledStreamManagerOptions.TrackLeaks), "true", true },
        { nameof(PooledStreamManagerOptions.MisusePolicy), "Ignore", PoolMisusePolicy.Ignore },
        { nameof(PooledStreamManagerOptions.TrimmingEnabled), "false", false },
        { nameof(PooledStreamManagerOptions.TrimInterval), "00:01:00", TimeSpan.FromMinutes(1) },
        { nameof(PooledStreamManagerOptions.TrimAge), "00:00:00", TimeSpan.Zero },
        { nameof(PooledStreamManagerOptions.Name), "uploads", "uploads" },
    };

    /// <summary>Each option of <c>AddStripedPooled</c> and of <c>AddStripedObjectPools</c>, with a value and what the options read.</summary>
    public static TheoryData<string, string, string, object> ObjectPoolOptions => new()
    {
        { nameof(PooledServiceOptions), nameof(PooledServiceOptions.MaximumRetained), "64", 64 },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.MaximumRetained), "64", 64 },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.Guarded), "true", true },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.TrackLeaks), "true", true },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.MisusePolicy), "Report", PoolMisusePolicy.Report },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.TrimmingEnabled), "false", false },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.TrimInterval), "00:00:05", TimeSpan.FromSeconds(5) },
        { nameof(StripedObjectPoolOptions), nameof(StripedObjectPoolOptions.TrimAge), "00:00:10", TimeSpan.FromSeconds(10) },
    };

    /// <summary>
    /// Malformed values: the options type (which registration), the key, the value, the exception the registration
    /// throws, and the option it names (an <see cref="ArgumentOutOfRangeException"/>'s ParamName), or null.
    /// </summary>
    public static TheoryData<string, string, string, Type, string?> MalformedValues => new()
    {
        // A word where a number goes.
        { nameof(StripedArrayPoolOptions), "MaximumArrayLength", "lots", typeof(InvalidOperationException), null },
        { nameof(StripedArrayPoolOptions), "MaximumArrayLength", "", typeof(InvalidOperationException), null },
        { nameof(StripedArrayPoolOptions), "MaximumRetainedBytesPerSizeClass", "64MB", typeof(InvalidOperationException), null },
        { nameof(PooledStreamManagerOptions), "BlockSize", "big", typeof(InvalidOperationException), null },
        { nameof(PooledStreamManagerOptions), "MaximumStreamCapacity", " ", typeof(InvalidOperationException), null },
        { nameof(PooledServiceOptions), "MaximumRetained", "twenty!", typeof(InvalidOperationException), null },
        { nameof(StripedObjectPoolOptions), "MaximumRetained", "1.5", typeof(InvalidOperationException), null },

        // A word where a flag or a time goes.
        { nameof(StripedArrayPoolOptions), "Guarded", "yes", typeof(InvalidOperationException), null },
        { nameof(PooledStreamManagerOptions), "ZeroOnReturn", "maybe", typeof(InvalidOperationException), null },
        { nameof(StripedArrayPoolOptions), "TrimInterval", "soon", typeof(InvalidOperationException), null },

        // A negative or otherwise out-of-range size or count.
        { nameof(StripedArrayPoolOptions), "MaximumArrayLength", "-5", typeof(ArgumentOutOfRangeException), "MaximumArrayLength" },
        { nameof(StripedArrayPoolOptions), "ItemsPerStripe", "-1", typeof(ArgumentOutOfRangeException), "ItemsPerStripe" },
        { nameof(StripedArrayPoolOptions), "MaximumRetainedBytesPerSizeClass", "0", typeof(ArgumentOutOfRangeException), "MaximumRetainedBytesPerSizeClass" },
        { nameof(StripedArrayPoolOptions), "StripeCount", "3", typeof(ArgumentOutOfRangeException), "StripeCount" },
        { nameof(StripedArrayPoolOptions), "TrimInterval", "2.00:00:00", typeof(ArgumentOutOfRangeException), "TrimInterval" },
        { nameof(StripedArrayPoolOptions), "TrimAge", "-00:00:01", typeof(ArgumentOutOfRangeException), "TrimAge" },
        { nameof(PooledStreamManagerOptions), "BlockSize", "-4096", typeof(ArgumentOutOfRangeException), "BlockSize" },
        { nameof(PooledStreamManagerOptions), "BlockSize", "1000", typeof(ArgumentOutOfRangeException), "BlockSize" },
        { nameof(PooledStreamManagerOptions), "MaximumBufferSize", "512", typeof(ArgumentOutOfRangeException), "MaximumBufferSize" },
        { nameof(PooledStreamManagerOptions), "MaximumStreamCapacity", "-1", typeof(ArgumentOutOfRangeException), "MaximumStreamCapacity" },
        { nameof(PooledServiceOptions), "MaximumRetained", "-1", typeof(ArgumentOutOfRangeException), "MaximumRetained" },
        { nameof(PooledServiceOptions), "MaximumRetained", "0", typeof(ArgumentOutOfRangeException), "MaximumRetained" },
        { nameof(StripedObjectPoolOptions), "MaximumRetained", "-64", typeof(ArgumentOutOfRangeException), "MaximumRetained" },

        // An enum name the enum does not define cannot be read; a number it does not define is out of range.
        { nameof(StripedArrayPoolOptions), "MisusePolicy", "Explode", typeof(InvalidOperationException), null },
        { nameof(StripedArrayPoolOptions), "DoubleReturnPolicy", "Never", typeof(InvalidOperationException), null },
        { nameof(PooledStreamManagerOptions), "MisusePolicy", "Crash", typeof(InvalidOperationException), null },
        { nameof(StripedObjectPoolOptions), "MisusePolicy", "Log", typeof(InvalidOperationException), null },
        { nameof(StripedArrayPoolOptions), "MisusePolicy", "7", typeof(ArgumentOutOfRangeException), "MisusePolicy" },
        { nameof(StripedArrayPoolOptions), "DoubleReturnPolicy", "-1", typeof(ArgumentOutOfRangeException), "DoubleReturnPolicy" },
        { nameof(PooledStreamManagerOptions), "MisusePolicy", "3", typeof(ArgumentOutOfRangeException), "MisusePolicy" },
    };

    /// <summary>Keys that are no option the registration takes (misspelt, another library's name, one configuration does not set), with a value.</summary>
    public static TheoryData<string, string, string> UnknownKeys => new()
    {
        { nameof(StripedArrayPoolOptions), "MaxArrayLength", "4096" },
        { nameof(StripedArrayPoolOptions), "OnMisuse", "Console.WriteLine" },
        { nameof(PooledStreamManagerOptions), "LargeBufferMultiple", "1048576" },
        { nameof(PooledServiceOptions), "Capacity", "64" },
        { nameof(StripedObjectPoolOptions), "DisposeItems", "true" },
        { nameof(StripedObjectPoolOptions), "Name", "parsers" },
    };

    [Theory]
    [MemberData(nameof(ArrayPoolOptions))]
    public void AddStripedArrayPoolBindsEachOptionFromConfiguration(string key, string value, object expected)
    {
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", Configuration((key, value)));
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> pool = container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");

        Assert.Equal(expected, Read(container.GetRequiredService<IOptionsMonitor<StripedArrayPoolOptions>>().Get("io"), key));
        Assert.Equal(key == nameof(StripedArrayPoolOptions.MaximumArrayLength) ? 4096 : 1 << 30, pool.MaximumArrayLength);
    }

    [Theory]
    [MemberData(nameof(StreamManagerOptions))]
    public void AddPooledStreamManagerBindsEachOptionFromConfiguration(string key, string value, object expected)
    {
        var services = new ServiceCollection();
        services.AddPooledStreamManager(Configuration((key, value)));
        using ServiceProvider container = services.BuildServiceProvider();

        PooledStreamManager manager = container.GetRequiredService<PooledStreamManager>();

        Assert.Equal(expected, Read(container.GetRequiredService<IOptions<PooledStreamManagerOptions>>().Value, key));
        Assert.Equal(key == nameof(PooledStreamManagerOptions.BlockSize) ? 4096 : PooledStreamManagerOptions.DefaultBlockSize, manager.BlockSize);
    }

    [Theory]
    [MemberData(nameof(ObjectPoolOptions))]
    public void TheObjectPoolRegistrationsBindEachOptionFromConfiguration(string optionsType, string key, string value, object expected)
    {
        var services = new ServiceCollection();
        s_registrations[optionsType](services, Configuration((key, value)));
        using ServiceProvider container = services.BuildServiceProvider();

        object options = optionsType == nameof(PooledServiceOptions)
            ? container.GetRequiredService<IOptionsMonitor<PooledServiceOptions>>().Get(typeof(Thing).FullName)
            : container.GetRequiredService<IOptions<StripedObjectPoolOptions>>().Value;

        Assert.Equal(expected, Read(options, key));
    }

    [Fact]
    public void TheRowsCoverEveryOptionConfigurationCanSet()
    {
        // Every settable option but the clock and the callback, which configuration cannot express; an object pool's
        // disposal and name are the registration's to decide. A new option fails here until it has a row.
        Assert.Equal(Settable<StripedArrayPoolOptions>(), Keys(ArrayPoolOptions, 0));
        Assert.Equal(Settable<PooledStreamManagerOptions>(), Keys(StreamManagerOptions, 0));
        Assert.Equal(Settable<PooledServiceOptions>(), Keys(ObjectPoolOptions.Where(static row => (string)row[0] == nameof(PooledServiceOptions)), 1));
        Assert.Equal(
            Settable<StripedObjectPoolOptions>().Except([nameof(StripedObjectPoolOptions.DisposeItems), nameof(PoolOptions.Name)]),
            Keys(ObjectPoolOptions.Where(static row => (string)row[0] == nameof(StripedObjectPoolOptions)), 1));
    }

    [Fact]
    public void EachRegistrationTakesItsSectionOfOneJsonDocument()
    {
        const string Json = """
            {
              "ArrayPools": { "io": { "MaximumArrayLength": 65536, "StripeCount": 2, "Guarded": true, "MisusePolicy": "Report", "TrimInterval": "00:00:05" } },
              "Streams": { "BlockSize": 16384, "MaximumBufferSize": 1048576, "MaximumStreamCapacity": 8388608, "ThrowExceptionOnToArray": true },
              "Pools": { "Parser": { "MaximumRetained": 32 } }
            }
            """;
        IConfiguration configuration = new ConfigurationBuilder().AddJsonStream(new System.IO.MemoryStream(System.Text.Encoding.UTF8.GetBytes(Json))).Build();
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", configuration.GetSection("ArrayPools:io"));
        services.AddPooledStreamManager(configuration.GetSection("Streams"));
        services.AddStripedPooled<Thing>(configuration.GetSection("Pools:Parser"));
        using ServiceProvider container = services.BuildServiceProvider();

        StripedArrayPool<byte> pool = container.GetRequiredKeyedService<StripedArrayPool<byte>>("io");
        PooledStreamManager manager = container.GetRequiredService<PooledStreamManager>();
        StripedObjectPool<Thing> things = container.GetRequiredService<StripedObjectPool<Thing>>();

        Assert.Equal((65_536, 2, true, PoolMisusePolicy.Report), (pool.MaximumArrayLength, pool.StripeCount, pool.IsTracking, container.GetRequiredService<IOptionsMonitor<StripedArrayPoolOptions>>().Get("io").MisusePolicy));
        Assert.Equal((16_384, 1_048_576, 8_388_608L, true), (manager.BlockSize, manager.MaximumBufferSize, manager.MaximumStreamCapacity, manager.ThrowExceptionOnToArray));
        Assert.Equal(32, things.MaximumRetained);
    }

    [Theory]
    [MemberData(nameof(MalformedValues))]
    public void AMalformedValueFailsTheRegistrationNamingItsKeyAndValue(string optionsType, string key, string value, Type expected, string? optionName)
    {
        var services = new ServiceCollection();

        Exception exception = Assert.Throws(expected, () => s_registrations[optionsType](services, Configuration((key, value))));

        Assert.Contains($"'{Section}:{key}'", exception.Message, StringComparison.Ordinal);
        if (exception is ArgumentOutOfRangeException outOfRange)
        {
            Assert.Equal(optionName, outOfRange.ParamName);
            Assert.Equal(value, outOfRange.ActualValue);
        }

        Assert.Contains($"'{value}'", exception.Message, StringComparison.Ordinal);

        Assert.Empty(services);
    }

    [Theory]
    [MemberData(nameof(UnknownKeys))]
    public void AKeyThatIsNoOptionFailsTheRegistrationNamingIt(string optionsType, string key, string value)
    {
        var services = new ServiceCollection();

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(() => s_registrations[optionsType](services, Configuration((key, value))));

        Assert.StartsWith($"The configuration key '{Section}:{key}' is not an option {optionsType} takes from configuration; those are: ", exception.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Theory]
    [InlineData("null")]
    [InlineData("{}")]
    public void AJsonKeyWithNoValueFailsTheRegistrationNamingIt(string json)
    {
        // JSON null and {} both reach the binder as a key without a value, which it would skip: the option's default
        // would then stand while the file says otherwise.
        IConfiguration configuration = new ConfigurationBuilder()
            .AddJsonStream(new System.IO.MemoryStream(System.Text.Encoding.UTF8.GetBytes($$"""{ "ArrayPools": { "io": { "MaximumArrayLength": {{json}} } } }""")))
            .Build();
        var services = new ServiceCollection();

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(
            () => services.AddStripedArrayPool<byte>("io", configuration.GetSection("ArrayPools:io")));

        Assert.StartsWith("The configuration key 'ArrayPools:io:MaximumArrayLength' has no value", exception.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void ASectionWhereAValueGoesFailsTheRegistration()
    {
        var services = new ServiceCollection();

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(
            () => services.AddStripedArrayPool<byte>("io", Configuration(("MaximumArrayLength:Value", "4096"))));

        Assert.Contains($"'{Section}:MaximumArrayLength' is a section, not a value", exception.Message, StringComparison.Ordinal);
        Assert.Empty(services);
    }

    [Fact]
    public void AValueMadeUnreadableAfterTheRegistrationFailsWhenThePoolIsResolved()
    {
        IConfigurationRoot root = new ConfigurationBuilder().AddInMemoryCollection([new($"{Section}:MaximumArrayLength", "4096")]).Build();
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", root.GetSection(Section));
        using ServiceProvider container = services.BuildServiceProvider();

        root[$"{Section}:MaximumArrayLength"] = "lots";

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(() => container.GetRequiredKeyedService<ArrayPool<byte>>("io"));
        Assert.Contains($"'{Section}:MaximumArrayLength'", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AKeyAddedAfterTheRegistrationThatIsNoOptionFailsWhenThePoolIsResolved()
    {
        IConfigurationRoot root = new ConfigurationBuilder().AddInMemoryCollection([new($"{Section}:MaximumArrayLength", "4096")]).Build();
        var services = new ServiceCollection();
        services.AddStripedArrayPool<byte>("io", root.GetSection(Section));
        using ServiceProvider container = services.BuildServiceProvider();

        root[$"{Section}:MaxArrayLength"] = "1024";

        InvalidOperationException exception = Assert.Throws<InvalidOperationException>(() => container.GetRequiredKeyedService<ArrayPool<byte>>("io"));
        Assert.Contains("MaxArrayLength", exception.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TheConfigurationRegistrationsRejectANullSection()
    {
        var services = new ServiceCollection();

        foreach (Action<IServiceCollection, IConfiguration> register in s_registrations.Values)
        {
            Assert.Equal("configuration", Assert.Throws<ArgumentNullException>(() => register(services, null!)).ParamName);
        }

        Assert.Equal("configuration", Assert.Throws<ArgumentNullException>(() => services.AddStripedPooled<Thing, Thing>((IConfiguration)null!)).ParamName);
        Assert.Empty(services);
    }

    /// <summary>A configuration whose <see cref="Section"/> holds <paramref name="values"/>, and that section.</summary>
    private static IConfigurationSection Configuration(params (string Key, string Value)[] values) =>
        new ConfigurationBuilder()
            .AddInMemoryCollection(values.Select(static pair => new KeyValuePair<string, string?>($"{Section}:{pair.Key}", pair.Value)))
            .Build()
            .GetSection(Section);

    private static object? Read(object options, string key) => options.GetType().GetProperty(key)!.GetValue(options);

    /// <summary>The public settable options of <typeparamref name="TOptions"/> but the clock and the callback, sorted.</summary>
    private static string[] Settable<TOptions>() =>
        typeof(TOptions).GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(static property => property.SetMethod is { IsPublic: true })
            .Where(static property => property.PropertyType != typeof(TimeProvider) && property.PropertyType != typeof(Action<PoolMisuse>))
            .Select(static property => property.Name)
            .Order(StringComparer.Ordinal)
            .ToArray();

    private static string[] Keys(IEnumerable<object?[]> rows, int column) =>
        rows.Select(row => (string)row[column]!).Order(StringComparer.Ordinal).ToArray();
}
