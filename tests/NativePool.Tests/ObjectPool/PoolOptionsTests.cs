using System.Reflection;

namespace NativePool.Tests.ObjectPool;

/// <summary>The one options root: setters never throw, <see cref="PoolOptions.Validate"/> checks at creation, <see cref="PoolOptions.Clone"/> copies everything.</summary>
public sealed class PoolOptionsTests
{
    [Fact]
    public void AnObjectPoolTrimsOnTheClockItIsGiven()
    {
        var clock = new ManualClock();
        var pool = new StripedObjectPool<object>(static () => new object(), null, new StripedObjectPoolOptions
        {
            MaximumRetained = 64,
            TimeProvider = clock,
            TrimInterval = TimeSpan.FromDays(1),
            TrimAge = TimeSpan.FromSeconds(60),
        });
        object[] items = Enumerable.Range(0, 64).Select(_ => pool.Get()).ToArray();
        Array.ForEach(items, pool.Return);

        // The first pass sees the stripes freshly touched; the second, a minute later on the injected clock, trims.
        pool.Engine.Trim();
        Assert.Equal(0, pool.GetStatistics().Trimmed);
        clock.Advance(TimeSpan.FromSeconds(61));
        pool.Engine.Trim();

        Assert.True(pool.GetStatistics().Trimmed > 0, pool.GetStatistics().ToString());
    }

    [Fact]
    public void SettersNeverThrowAndValidateNamesTheBadOption()
    {
        var options = new StripedObjectPoolOptions { MaximumRetained = 0, TrimAge = TimeSpan.FromDays(-1) };

        var thrown = Assert.Throws<ArgumentOutOfRangeException>(options.Validate);
        Assert.Equal(nameof(StripedObjectPoolOptions.MaximumRetained), thrown.ParamName);
        options.MaximumRetained = 1;
        thrown = Assert.Throws<ArgumentOutOfRangeException>(options.Validate);
        Assert.Equal(nameof(PoolOptions.TrimAge), thrown.ParamName);
    }

    [Theory]
    [InlineData(typeof(StripedArrayPoolOptions))]
    [InlineData(typeof(StripedMemoryPoolOptions))]
    [InlineData(typeof(NativeBlockPoolOptions))]
    [InlineData(typeof(StripedObjectPoolOptions))]
    public void CloneCopiesEveryOptionTheClockIncluded(Type type)
    {
        var options = (PoolOptions)Activator.CreateInstance(type)!;
        PropertyInfo[] properties = type.GetProperties(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance)
            .Where(property => property.CanWrite)
            .ToArray();
        foreach (PropertyInfo property in properties)
        {
            property.SetValue(options, NonDefault(property.PropertyType, property.GetValue(options)));
        }

        PoolOptions copy = options.Clone();

        Assert.NotSame(options, copy);
        Assert.IsType(type, copy);
        Assert.All(properties, property => Assert.Equal(property.GetValue(options), property.GetValue(copy)));
        Assert.All(properties, property => Assert.NotEqual(property.GetValue(Activator.CreateInstance(type)), property.GetValue(copy)));
    }

    private static readonly TimeProvider s_clock = new ManualClock();
    private static readonly Func<MemoryPressure> s_pressure = static () => MemoryPressure.High;
    private static readonly Action<PoolMisuse> s_onMisuse = static _ => { };

    /// <summary>A value of <paramref name="type"/> that differs from the option's default, <paramref name="current"/>.</summary>
    private static object NonDefault(Type type, object? current) => type switch
    {
        _ when type == typeof(int) => 7,
        _ when type == typeof(long) => 7L,
        _ when type == typeof(bool) => !(bool)current!,
        _ when type == typeof(TimeSpan) => TimeSpan.FromSeconds(7),
        _ when type == typeof(string) => "seven",
        _ when type == typeof(TimeProvider) => s_clock,
        _ when type == typeof(Func<MemoryPressure>) => s_pressure,
        _ when type == typeof(Action<PoolMisuse>) => s_onMisuse,
        _ when type == typeof(PoolMisusePolicy) => PoolMisusePolicy.Ignore,
        _ => throw new NotSupportedException($"No test value for an option of type {type}."),
    };
}
