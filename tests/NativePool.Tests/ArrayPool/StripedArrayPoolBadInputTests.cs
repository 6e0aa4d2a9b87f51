using System.Reflection;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The bad-input table: every public member of <see cref="StripedArrayPool{T}"/>, <see cref="StripedArrayPoolOptions"/>
/// (through <c>Create</c>) and <see cref="ArrayLease{T}"/> with every bad argument gets the documented exception, and the
/// pool works correctly afterwards. Plus double returns, which must throw and never lead to a double hand-out.
/// </summary>
public class StripedArrayPoolBadInputTests
{
    private static readonly Dictionary<string, BadPoolCall> s_poolCalls = new()
    {
        ["Rent(-1)"] = new((bytes, _) => bytes.Rent(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["Rent(int.MinValue)"] = new((bytes, _) => bytes.Rent(int.MinValue), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["object Rent(-1)"] = new((_, objects) => objects.Rent(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),

        // Longer than any array can be: the runtime's OutOfMemoryException, as ArrayPool<T>.Shared gives.
        ["Rent(int.MaxValue)"] = new((bytes, _) => bytes.Rent(int.MaxValue), typeof(OutOfMemoryException), null),
        ["object Rent(int.MaxValue)"] = new((_, objects) => objects.Rent(int.MaxValue), typeof(OutOfMemoryException), null),
        ["Return(null)"] = new((bytes, _) => bytes.Return(null!), typeof(ArgumentNullException), "array"),
        ["Return(null, clearArray: true)"] = new((bytes, _) => bytes.Return(null!, clearArray: true), typeof(ArgumentNullException), "array"),
        ["object Return(null)"] = new((_, objects) => objects.Return(null!), typeof(ArgumentNullException), "array"),
        ["Return(new byte[1])"] = new((bytes, _) => bytes.Return(new byte[1]), typeof(ArgumentException), "array"),
        ["Return(new byte[15])"] = new((bytes, _) => bytes.Return(new byte[15]), typeof(ArgumentException), "array"),
        ["Return(new byte[17])"] = new((bytes, _) => bytes.Return(new byte[17]), typeof(ArgumentException), "array"),
        ["Return(new byte[100], clearArray: true)"] = new((bytes, _) => bytes.Return(new byte[100], clearArray: true), typeof(ArgumentException), "array"),
        ["Return(new byte[4095])"] = new((bytes, _) => bytes.Return(new byte[4095]), typeof(ArgumentException), "array"),
        ["Return(new byte[MaximumArrayLength - 1])"] = new((bytes, _) => bytes.Return(new byte[bytes.MaximumArrayLength - 1]), typeof(ArgumentException), "array"),
        ["object Return(new object[17])"] = new((_, objects) => objects.Return(new object[17]), typeof(ArgumentException), "array"),

        // A string[] is an object[] by array covariance, but a pool that kept it would hand it to the next renter of
        // object[] and every store of a non-string into it would throw ArrayTypeMismatchException.
        ["object Return(new string[16])"] = new((_, objects) => objects.Return(new string[16]), typeof(ArgumentException), "array"),
        ["object Return(new string[1])"] = new((_, objects) => objects.Return(new string[1]), typeof(ArgumentException), "array"),
        ["RentScoped(-1)"] = new((bytes, _) => bytes.RentScoped(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["RentScoped(int.MinValue, clearOnReturn: true)"] = new((bytes, _) => bytes.RentScoped(int.MinValue, clearOnReturn: true), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["object RentScoped(-1)"] = new((_, objects) => objects.RentScoped(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["RentLease(-1)"] = new((bytes, _) => bytes.RentLease(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["RentLease(int.MinValue, clearOnReturn: true)"] = new((bytes, _) => bytes.RentLease(int.MinValue, clearOnReturn: true), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["object RentLease(-1)"] = new((_, objects) => objects.RentLease(-1), typeof(ArgumentOutOfRangeException), "minimumLength"),
        ["Create(null)"] = new((_, _) => StripedArrayPool<byte>.Create(null!), typeof(ArgumentNullException), "options"),
        ["object Create(null)"] = new((_, _) => StripedArrayPool<object>.Create(null!), typeof(ArgumentNullException), "options"),
    };

    private static readonly Dictionary<string, BadOption> s_badOptions = new()
    {
        ["MaximumArrayLength = int.MinValue"] = new(o => o.MaximumArrayLength = int.MinValue, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = -1"] = new(o => o.MaximumArrayLength = -1, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = 0"] = new(o => o.MaximumArrayLength = 0, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = 1"] = new(o => o.MaximumArrayLength = 1, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = 15"] = new(o => o.MaximumArrayLength = 15, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = 2^30 + 1"] = new(o => o.MaximumArrayLength = (1 << 30) + 1, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["MaximumArrayLength = int.MaxValue"] = new(o => o.MaximumArrayLength = int.MaxValue, nameof(StripedArrayPoolOptions.MaximumArrayLength)),
        ["ItemsPerStripe = int.MinValue"] = new(o => o.ItemsPerStripe = int.MinValue, nameof(StripedArrayPoolOptions.ItemsPerStripe)),
        ["ItemsPerStripe = -1"] = new(o => o.ItemsPerStripe = -1, nameof(StripedArrayPoolOptions.ItemsPerStripe)),
        ["ItemsPerStripe = 65 537"] = new(o => o.ItemsPerStripe = 65_537, nameof(StripedArrayPoolOptions.ItemsPerStripe)),
        ["ItemsPerStripe = int.MaxValue"] = new(o => o.ItemsPerStripe = int.MaxValue, nameof(StripedArrayPoolOptions.ItemsPerStripe)),
        ["MaximumRetainedBytesPerSizeClass = long.MinValue"] = new(o => o.MaximumRetainedBytesPerSizeClass = long.MinValue, nameof(StripedArrayPoolOptions.MaximumRetainedBytesPerSizeClass)),
        ["MaximumRetainedBytesPerSizeClass = -1"] = new(o => o.MaximumRetainedBytesPerSizeClass = -1, nameof(StripedArrayPoolOptions.MaximumRetainedBytesPerSizeClass)),
        ["MaximumRetainedBytesPerSizeClass = 0"] = new(o => o.MaximumRetainedBytesPerSizeClass = 0, nameof(StripedArrayPoolOptions.MaximumRetainedBytesPerSizeClass)),
        ["StripeCount = int.MinValue"] = new(o => o.StripeCount = int.MinValue, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = -1"] = new(o => o.StripeCount = -1, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = 3"] = new(o => o.StripeCount = 3, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = 6"] = new(o => o.StripeCount = 6, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = 48"] = new(o => o.StripeCount = 48, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = 65"] = new(o => o.StripeCount = 65, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = 128"] = new(o => o.StripeCount = 128, nameof(StripedArrayPoolOptions.StripeCount)),
        ["StripeCount = int.MaxValue"] = new(o => o.StripeCount = int.MaxValue, nameof(StripedArrayPoolOptions.StripeCount)),
        ["TrimInterval = TimeSpan.MinValue"] = new(o => o.TrimInterval = TimeSpan.MinValue, nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimInterval = Timeout.InfiniteTimeSpan"] = new(o => o.TrimInterval = Timeout.InfiniteTimeSpan, nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimInterval = 0"] = new(o => o.TrimInterval = TimeSpan.Zero, nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimInterval = 1 ms - 1 tick"] = new(o => o.TrimInterval = TimeSpan.FromMilliseconds(1) - TimeSpan.FromTicks(1), nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimInterval = 1 day + 1 tick"] = new(o => o.TrimInterval = TimeSpan.FromDays(1) + TimeSpan.FromTicks(1), nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimInterval = TimeSpan.MaxValue"] = new(o => o.TrimInterval = TimeSpan.MaxValue, nameof(StripedArrayPoolOptions.TrimInterval)),
        ["TrimAge = TimeSpan.MinValue"] = new(o => o.TrimAge = TimeSpan.MinValue, nameof(StripedArrayPoolOptions.TrimAge)),
        ["TrimAge = -1 tick"] = new(o => o.TrimAge = TimeSpan.FromTicks(-1), nameof(StripedArrayPoolOptions.TrimAge)),
        ["TrimAge = 1 day + 1 tick"] = new(o => o.TrimAge = TimeSpan.FromDays(1) + TimeSpan.FromTicks(1), nameof(StripedArrayPoolOptions.TrimAge)),
        ["TrimAge = TimeSpan.MaxValue"] = new(o => o.TrimAge = TimeSpan.MaxValue, nameof(StripedArrayPoolOptions.TrimAge)),

        // Validated whether or not trimming is on.
        ["TrimInterval = 0 with trimming off"] = new(o => (o.TrimmingEnabled, o.TrimInterval) = (false, TimeSpan.Zero), nameof(StripedArrayPoolOptions.TrimInterval)),

        // A value the enum does not define would otherwise behave as Ignore. Validated whether or not the pool is guarded.
        ["MisusePolicy = -1"] = new(o => o.MisusePolicy = (PoolMisusePolicy)(-1), nameof(StripedArrayPoolOptions.MisusePolicy)),
        ["MisusePolicy = 3"] = new(o => o.MisusePolicy = (PoolMisusePolicy)3, nameof(StripedArrayPoolOptions.MisusePolicy)),
        ["MisusePolicy = int.MaxValue in a guarded pool"] = new(o => (o.Guarded, o.MisusePolicy) = (true, (PoolMisusePolicy)int.MaxValue), nameof(StripedArrayPoolOptions.MisusePolicy)),
        ["DoubleReturnPolicy = int.MinValue"] = new(o => o.DoubleReturnPolicy = (PoolMisusePolicy)int.MinValue, nameof(StripedArrayPoolOptions.DoubleReturnPolicy)),
        ["DoubleReturnPolicy = 3"] = new(o => o.DoubleReturnPolicy = (PoolMisusePolicy)3, nameof(StripedArrayPoolOptions.DoubleReturnPolicy)),
    };

    private static readonly Dictionary<string, Action<StripedArrayPoolOptions>> s_edgeOptions = new()
    {
        ["MaximumArrayLength = 16"] = o => o.MaximumArrayLength = 16,
        ["MaximumArrayLength = 17"] = o => o.MaximumArrayLength = 17,
        ["MaximumArrayLength = 2^30"] = o => o.MaximumArrayLength = 1 << 30,
        ["ItemsPerStripe = 0"] = o => o.ItemsPerStripe = 0,
        ["ItemsPerStripe = 1"] = o => o.ItemsPerStripe = 1,
        ["ItemsPerStripe = 65 536"] = o => o.ItemsPerStripe = 65_536,
        ["MaximumRetainedBytesPerSizeClass = 1"] = o => o.MaximumRetainedBytesPerSizeClass = 1,
        ["MaximumRetainedBytesPerSizeClass = long.MaxValue"] = o => o.MaximumRetainedBytesPerSizeClass = long.MaxValue,
        ["StripeCount = 0"] = o => o.StripeCount = 0,
        ["StripeCount = 1"] = o => o.StripeCount = 1,
        ["StripeCount = 64"] = o => o.StripeCount = 64,
        ["TrimInterval = 1 ms"] = o => o.TrimInterval = TimeSpan.FromMilliseconds(1),
        ["TrimInterval = 1 day"] = o => o.TrimInterval = TimeSpan.FromDays(1),
        ["TrimAge = 0"] = o => o.TrimAge = TimeSpan.Zero,
        ["TrimAge = 1 day"] = o => o.TrimAge = TimeSpan.FromDays(1),
        ["MisusePolicy = Throw, guarded"] = o => (o.Guarded, o.MisusePolicy) = (true, PoolMisusePolicy.Throw),
        ["MisusePolicy = Ignore, guarded"] = o => (o.Guarded, o.MisusePolicy) = (true, PoolMisusePolicy.Ignore),
        ["DoubleReturnPolicy = Throw"] = o => o.DoubleReturnPolicy = PoolMisusePolicy.Throw,
        ["DoubleReturnPolicy = Ignore"] = o => o.DoubleReturnPolicy = PoolMisusePolicy.Ignore,
    };

    private readonly StripedArrayPool<byte> _bytes = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
    {
        MaximumArrayLength = 1 << 16,
        TrimmingEnabled = false,
    });

    private readonly StripedArrayPool<object> _objects = StripedArrayPool<object>.Create(new StripedArrayPoolOptions
    {
        MaximumArrayLength = 1 << 16,
        TrimmingEnabled = false,
    });

    public static TheoryData<string> PoolCalls => new(s_poolCalls.Keys);

    public static TheoryData<string> BadOptions => new(s_badOptions.Keys);

    public static TheoryData<string> EdgeOptions => new(s_edgeOptions.Keys);

    [Theory]
    [MemberData(nameof(PoolCalls))]
    public void EveryBadArgumentToThePoolThrowsTheDocumentedException(string call)
    {
        BadPoolCall row = s_poolCalls[call];
        Exception exception = Assert.Throws(row.Exception, () => row.Call(_bytes, _objects));
        if (row.ParamName is not null)
        {
            Assert.Equal(row.ParamName, Assert.IsAssignableFrom<ArgumentException>(exception).ParamName);
        }

        AssertStillWorks(_bytes);
        AssertStillWorks(_objects);
    }

    [Theory]
    [MemberData(nameof(BadOptions))]
    public void EveryBadOptionThrowsArgumentOutOfRangeNamingTheOption(string option)
    {
        BadOption row = s_badOptions[option];
        var options = new StripedArrayPoolOptions();
        row.Apply(options);

        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => StripedArrayPool<byte>.Create(options));
        Assert.Equal(row.OptionName, exception.ParamName);
        exception = Assert.Throws<ArgumentOutOfRangeException>(() => StripedArrayPool<object>.Create(options));
        Assert.Equal(row.OptionName, exception.ParamName);

        // Nothing was half-built: the same options object, corrected, makes a working pool.
        options.MaximumArrayLength = 1 << 16;
        options.ItemsPerStripe = 0;
        options.MaximumRetainedBytesPerSizeClass = StripedArrayPoolOptions.DefaultMaximumRetainedBytesPerSizeClass;
        options.StripeCount = 0;
        options.TrimInterval = TimeSpan.FromSeconds(30);
        options.TrimAge = TimeSpan.FromSeconds(60);
        options.MisusePolicy = PoolMisusePolicy.Throw;
        options.DoubleReturnPolicy = PoolMisusePolicy.Throw;
        AssertStillWorks(StripedArrayPool<byte>.Create(options));
    }

    [Theory]
    [MemberData(nameof(EdgeOptions))]
    public void EveryOptionAtTheEdgeOfItsRangeMakesAWorkingPool(string option)
    {
        var options = new StripedArrayPoolOptions();
        s_edgeOptions[option](options);
        AssertStillWorks(StripedArrayPool<byte>.Create(options));
        AssertStillWorks(StripedArrayPool<object>.Create(options));
    }

    [Fact]
    public void AMaximumArrayLengthThatIsNotAPowerOfTwoIsRoundedUp()
    {
        Assert.Equal(32, StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { MaximumArrayLength = 17 }).MaximumArrayLength);
        Assert.Equal(4096, StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { MaximumArrayLength = 3000 }).MaximumArrayLength);
    }

    [Fact]
    public void ChangingTheOptionsAfterCreateChangesNothing()
    {
        var options = new StripedArrayPoolOptions { MaximumArrayLength = 4096, TrimmingEnabled = false };
        var pool = StripedArrayPool<byte>.Create(options);
        options.MaximumArrayLength = 16;
        options.ClearOnReturn = true;

        Assert.Equal(4096, pool.MaximumArrayLength);
        byte[] array = pool.Rent(4096);
        Assert.Equal(4096, array.Length);
        array[0] = 42;
        pool.Return(array);
        Assert.Equal(42, pool.Rent(4096)[0]);
    }

    [Fact]
    public void TheLeaseHasNoBadArgumentsAndItsDefaultIsHarmless()
    {
        // ArrayLease<T>'s only members with arguments are the equality members; none of them throws. The default lease is
        // inactive: its views throw ObjectDisposedException, its Dispose does nothing.
        ArrayLease<byte> lease = _bytes.RentLease(100);
        ArrayLease<byte> empty = default;
        Assert.False(lease.Equals(null));
        Assert.False(lease.Equals(new object()));
        Assert.False(lease.Equals(empty));
        Assert.False(lease == empty);
        Assert.True(lease != empty);
        Assert.True(empty.Equals(default(ArrayLease<byte>)));
        _ = empty.GetHashCode();
        Assert.Equal(0, empty.Length);
        Assert.False(empty.IsActive);
        Assert.Throws<ObjectDisposedException>(() => empty.Span.IsEmpty);
        Assert.Throws<ObjectDisposedException>(() => empty.Memory);
        Assert.Throws<ObjectDisposedException>(() => empty.Array);
        empty.Dispose();

        lease.Dispose();
        AssertStillWorks(_bytes);
    }

    [Fact]
    public void EveryPublicMemberIsInTheTable()
    {
        // A new public member must get its rows above (or be listed here as taking no argument that can be bad).
        AssertPublicMembers(
            typeof(StripedArrayPool<byte>),
            "Shared", "DefaultLength", "MaximumArrayLength", "StripeCount", "ArraysArePinned", "Create", "Rent", "Return", "RentScoped",
            "RentLease", "Trim", "Clear", "GetStatistics", "Name", "IsTracking", "GetLeaks");
        AssertPublicMembers(
            typeof(ArrayLease<byte>),
            "IsActive", "Length", "Array", "Span", "Memory", "Dispose", "Equals", "GetHashCode", "op_Equality", "op_Inequality");
        AssertPublicMembers(
            typeof(StripedArrayPoolOptions),
            "DefaultMaximumRetainedBytesPerSizeClass", "MaximumArrayLength", "ClearOnReturn", "ClearReferencesOnReturn",
            "Guarded", "TrackLeaks", "MisusePolicy", "DoubleReturnPolicy", "OnMisuse");
        AssertPublicMembers(
            typeof(StripedPoolOptions),
            "ItemsPerStripe", "MaximumRetainedBytesPerSizeClass", "StripeCount");
        AssertPublicMembers(
            typeof(PoolOptions),
            "TrimmingEnabled", "TrimInterval", "TrimAge", "TimeProvider", "Name", "Validate", "Clone");

        // Every option with a range (an enum's is its defined values) has rows; the booleans have no bad value.
        string[] ranged =
        [
            "MaximumArrayLength", "ItemsPerStripe", "MaximumRetainedBytesPerSizeClass", "StripeCount", "TrimInterval", "TrimAge",
            "MisusePolicy", "DoubleReturnPolicy",
        ];
        Assert.All(ranged, name => Assert.Contains(s_badOptions.Values, row => row.OptionName == name));
    }

    [Fact]
    public void ReturningTheSameArrayTwiceInARowThrowsInvalidOperation()
    {
        byte[] array = _bytes.Rent(100);
        _bytes.Return(array);
        Assert.Throws<InvalidOperationException>(() => _bytes.Return(array));
        Assert.Throws<InvalidOperationException>(() => _bytes.Return(array, clearArray: true));

        AssertHandedOutOnce(_bytes, array, 100);
    }

    [Fact]
    public void ReturningTheSameObjectArrayTwiceInARowThrowsInvalidOperation()
    {
        object[] array = _objects.Rent(16);
        _objects.Return(array);
        Assert.Throws<InvalidOperationException>(() => _objects.Return(array));

        AssertHandedOutOnce(_objects, array, 16);
    }

    [Fact]
    public void ReturningAnArrayAgainAfterItWentToTheStripeThrowsInvalidOperation()
    {
        // One stripe, so the second return of a probes the stripe a went to: a is under b (b is in the thread slot).
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { StripeCount = 1, TrimmingEnabled = false });
        byte[] a = pool.Rent(100);
        byte[] b = pool.Rent(100);
        pool.Return(a);
        pool.Return(b);
        Assert.Throws<InvalidOperationException>(() => pool.Return(a));

        // The failed return left the thread slot as it was: b first, then a, then a new array.
        Assert.Same(b, pool.Rent(100));
        Assert.Same(a, pool.Rent(100));
        #pragma warning disable NP0003 // Kept outstanding: the test checks that nothing is pooled.
        byte[] third = pool.Rent(100);
        #pragma warning restore NP0003
        Assert.NotSame(a, third);
        Assert.NotSame(b, third);
        Assert.Equal(0, pool.GetStatistics().Pooled);
    }

    [Fact]
    public void ReturningALeasesArrayAfterDisposingTheLeaseThrowsInvalidOperation()
    {
        ArrayLease<byte> lease = _bytes.RentLease(100);
        byte[] array = lease.Array;
        lease.Dispose();
        Assert.Throws<InvalidOperationException>(() => _bytes.Return(array));

        AssertHandedOutOnce(_bytes, array, 100);
    }

    private static void AssertHandedOutOnce<T>(StripedArrayPool<T> pool, T[] array, int length)
    {
        // After the rejected second return the array is in the pool once: the next 50 rents hold it at most once.
        var rented = new List<T[]>();
        for (int i = 0; i < 50; i++)
        {
            rented.Add(pool.Rent(length));
        }

        Assert.Single(rented, item => ReferenceEquals(item, array));
        Assert.Equal(rented.Count, rented.Distinct(ReferenceEqualityComparer.Instance).Count());
        foreach (T[] item in rented)
        {
            pool.Return(item);
        }

        AssertStillWorks(pool);
    }

    private static void AssertStillWorks<T>(StripedArrayPool<T> pool)
    {
        foreach (int length in new[] { 1, 16, 100, 4096 })
        {
            var rented = new List<T[]>();
            for (int i = 0; i < 10; i++)
            {
                T[] array = pool.Rent(length);
                int expected = length > pool.MaximumArrayLength ? length : Math.Max(16, (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)length));
                Assert.Equal(expected, array.Length);
                Assert.Equal(typeof(T[]), array.GetType());
                rented.Add(array);
            }

            Assert.Equal(rented.Count, rented.Distinct(ReferenceEqualityComparer.Instance).Count());
            foreach (T[] array in rented)
            {
                pool.Return(array);
            }

            T[] last = rented[^1];
            T[] again = pool.Rent(length);
            if (length <= pool.MaximumArrayLength)
            {
                Assert.Same(last, again);
            }

            pool.Return(again);
        }

        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.True(statistics.IsConserved, statistics.ToString());
    }

    private static void AssertPublicMembers(Type type, params string[] expected)
    {
        IEnumerable<string> actual = type
            .GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly)
            .Where(member => member is not MethodInfo { IsSpecialName: true } || member.Name.StartsWith("op_", StringComparison.Ordinal))
            .Where(member => member is not ConstructorInfo)
            .Select(member => member.Name)
            .Distinct();
        Assert.Equal(expected.Order(StringComparer.Ordinal), actual.Order(StringComparer.Ordinal));
    }

    /// <summary>One row of the pool table: a call with a bad argument, the exception it must throw and its ParamName.</summary>
    private sealed record BadPoolCall(Action<StripedArrayPool<byte>, StripedArrayPool<object>> Call, Type Exception, string? ParamName);

    /// <summary>One row of the options table: a bad value and the name of the option it is for.</summary>
    private sealed record BadOption(Action<StripedArrayPoolOptions> Apply, string OptionName);
}
