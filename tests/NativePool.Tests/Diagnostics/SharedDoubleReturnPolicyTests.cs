namespace NativePool.Tests.Diagnostics;

/// <summary>
/// The process-wide double-return policy of <see cref="StripedArrayPool{T}.Shared"/>: how the setting is read, and what
/// each policy does, on pools made exactly as Shared is (the process's own policy is read once and cannot change here).
/// </summary>
public sealed class SharedDoubleReturnPolicyTests
{
    [Fact]
    public void TheSharedPoolHasThePolicyTheProcessSettingsGive()
    {
        PoolMisusePolicy expected = SharedDoubleReturnPolicy.Read(AppContext.GetData, Environment.GetEnvironmentVariable);

        Assert.Equal(expected, SharedDoubleReturnPolicy.Value);
        Assert.Equal(expected, StripedArrayPool<byte>.Shared.DoubleReturnPolicy);
        Assert.Equal(expected, StripedArrayPool<char>.Shared.DoubleReturnPolicy);
    }

    [Fact]
    public void WithNothingSetTheSharedPoolReports()
    {
        Assert.Equal(PoolMisusePolicy.Report, SharedDoubleReturnPolicy.Read(static _ => null, static _ => null));
    }

    [Theory]
    [InlineData("Throw", null, PoolMisusePolicy.Throw)]
    [InlineData("report", null, PoolMisusePolicy.Report)]
    [InlineData(" IGNORE ", null, PoolMisusePolicy.Ignore)]
    [InlineData(null, "throw", PoolMisusePolicy.Throw)]
    [InlineData(null, "Ignore", PoolMisusePolicy.Ignore)]
    [InlineData("", "Ignore", PoolMisusePolicy.Ignore)]
    [InlineData("Throw", "Ignore", PoolMisusePolicy.Throw)]
    [InlineData("", "", PoolMisusePolicy.Report)]
    public void TheRuntimeSettingComesBeforeTheEnvironmentVariable(string? setting, string? environment, PoolMisusePolicy expected)
    {
        PoolMisusePolicy policy = SharedDoubleReturnPolicy.Read(
            name => name == SharedDoubleReturnPolicy.SettingName ? setting : null,
            name => name == SharedDoubleReturnPolicy.EnvironmentVariable ? environment : null);

        Assert.Equal(expected, policy);
    }

    [Theory]
    [InlineData("sometimes", null)]
    [InlineData(null, "1")]
    [InlineData(null, "Throws")]
    [InlineData("Report please", "Ignore")]
    public void AnUnknownPolicyIsRefusedWithItsSourceAndValueNamed(string? setting, string? environment)
    {
        InvalidOperationException refused = Assert.Throws<InvalidOperationException>(() => SharedDoubleReturnPolicy.Read(
            name => name == SharedDoubleReturnPolicy.SettingName ? setting : null,
            name => name == SharedDoubleReturnPolicy.EnvironmentVariable ? environment : null));

        string source = setting is null ? SharedDoubleReturnPolicy.EnvironmentVariable : SharedDoubleReturnPolicy.SettingName;
        Assert.Contains(source, refused.Message, StringComparison.Ordinal);
        Assert.Contains($"'{setting ?? environment}'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Throw, Report or Ignore", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ARuntimeSettingThatIsNotAStringIsRefusedNotSkipped()
    {
        // runtimeconfig.json "NativePool.SharedDoubleReturnPolicy": true is a mistake to report, not a reason to fall
        // back to the environment variable.
        Assert.Throws<InvalidOperationException>(() => SharedDoubleReturnPolicy.Read(static _ => true, static _ => "Ignore"));
    }

    [Theory]
    [InlineData(PoolMisusePolicy.Throw, true, 1)]
    [InlineData(PoolMisusePolicy.Report, false, 1)]
    [InlineData(PoolMisusePolicy.Ignore, false, 0)]
    public void UnderEachPolicyADoubleReturnKeepsTheArrayOnceAndTellsWhomThePolicySays(PoolMisusePolicy policy, bool throws, int events)
    {
        var pool = StripedArrayPool<byte>.CreateShared(policy);
        using var listener = new PoolEventListener(pool.Engine.Id);

        byte[] array = ReturnTwice(pool, throws);

        Assert.Equal(events, listener.Count("DoubleReturn"));
        // The listener did hear this pool: both calls were reported as returns.
        Assert.Equal(2, listener.Count("BufferReturned"));
        Assert.Same(array, pool.Rent(100));
        Assert.NotSame(array, pool.Rent(100));
    }

    [Theory]
    [InlineData(PoolMisusePolicy.Throw, 1)]
    [InlineData(PoolMisusePolicy.Report, 1)]
    [InlineData(PoolMisusePolicy.Ignore, 0)]
    public void EachDoubleReturnAPolicyDoesNotIgnoreIsCountedOnceInTheStatisticsWithNobodyListening(PoolMisusePolicy policy, int perMisuse)
    {
        // No listener and no callback: what a Native AOT app, whose event sources are off, still reads.
        var pool = StripedArrayPool<byte>.CreateShared(policy);
        Assert.Equal(0, pool.GetStatistics().Misuses);

        for (int misuse = 1; misuse <= 3; misuse++)
        {
            byte[] array = ReturnTwice(pool, expectThrow: policy == PoolMisusePolicy.Throw);

            Assert.Equal(misuse * perMisuse, pool.GetStatistics().Misuses);
            Assert.Same(array, pool.Rent(100));
            pool.Return(array);
            Assert.Equal(misuse * perMisuse, pool.GetStatistics().Misuses);
            Assert.Same(array, pool.Rent(100));
        }
    }

    [Fact]
    public void AReportedDoubleReturnIsCountedOnceWhetherOrNotACallbackOrListenerHearsIt()
    {
        var reports = new List<PoolMisuse>();
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            DoubleReturnPolicy = PoolMisusePolicy.Report,
            OnMisuse = reports.Add,
            TrimmingEnabled = false,
        });
        using var listener = new PoolEventListener(pool.Engine.Id);

        ReturnTwice(pool, expectThrow: false);

        Assert.Equal(1, listener.Count("DoubleReturn"));
        Assert.Single(reports);
        Assert.Equal(1, pool.GetStatistics().Misuses);
    }

    private static byte[] ReturnTwice(StripedArrayPool<byte> pool, bool expectThrow)
    {
        byte[] array = pool.Rent(100);
        pool.Return(array);
        if (expectThrow)
        {
            Assert.Throws<InvalidOperationException>(() => pool.Return(array));
        }
        else
        {
            pool.Return(array);
        }

        return array;
    }
}
