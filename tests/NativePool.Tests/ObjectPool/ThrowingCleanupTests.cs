using System.IO;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A return whose policy throws (a cleanup delegate, a policy, an <see cref="IResettable"/> under the default policy):
/// the exception reaches the caller of <c>Return</c>, and the object is dropped, so the statistics still balance with
/// nothing outstanding.
/// </summary>
public sealed class ThrowingCleanupTests
{
    public static TheoryData<string> Policies { get; } = new()
    {
        "cleanup delegate",
        "cleanup delegate, disposing pool",
        "cleanup delegate, guarded pool",
        "policy class",
        "policy interface",
        "IResettable under the default policy",
    };

    [Theory]
    [MemberData(nameof(Policies))]
    public void AnObjectWhoseCleanupThrowsIsCountedAsDroppedAndTheExceptionReachesTheCaller(string policy)
    {
        StripedObjectPool<FailingThing> pool = Create(policy);
        FailingThing item = pool.Get();
        item.FailCleanup = true;

        InvalidDataException exception = Assert.Throws<InvalidDataException>(() => pool.Return(item));

        Assert.Same(FailingThing.CleanupFailure, exception.Message);
        PoolStatistics statistics = pool.GetStatistics();
        StatisticsAssert.Counts(statistics, allocated: 1, pooled: 0, dropped: 1, trimmed: 0, outstanding: 0);
        Assert.Equal(statistics.Allocated, statistics.Pooled + statistics.Outstanding + statistics.Dropped + statistics.Trimmed);
        Assert.Empty(pool.GetLeaks());
        Assert.Equal(pool.DisposesItems ? 1 : 0, item.DisposeCount);

        // Not kept: the next Get makes a new object.
        Assert.NotSame(item, pool.Get());
    }

    private static StripedObjectPool<FailingThing> Create(string policy)
    {
        var options = new StripedObjectPoolOptions { TrimmingEnabled = false };
        return policy switch
        {
            "cleanup delegate" => new(static () => new FailingThing(), static thing => thing.Clean(), options),
            "cleanup delegate, disposing pool" => new(static () => new FailingThing(), static thing => thing.Clean(), new StripedObjectPoolOptions { DisposeItems = true }),
            "cleanup delegate, guarded pool" => new(static () => new FailingThing(), static thing => thing.Clean(), new StripedObjectPoolOptions { Guarded = true, TrimmingEnabled = false }),
            "policy class" => new(new CleaningPolicy(), options),
            "policy interface" => new(new CleaningInterfacePolicy(), options),
            "IResettable under the default policy" => new(new DefaultPooledObjectPolicy<FailingThing>(), options),
            _ => throw new ArgumentOutOfRangeException(nameof(policy), policy, "Not a policy of this test."),
        };
    }

    /// <summary>An object whose cleanup (and reset) throws once told to.</summary>
    private sealed class FailingThing : IResettable, IDisposable
    {
        public const string CleanupFailure = "The cleanup failed.";

        public bool FailCleanup { get; set; }

        public int DisposeCount { get; private set; }

        public void Clean()
        {
            if (FailCleanup)
            {
                throw new InvalidDataException(CleanupFailure);
            }
        }

        public bool TryReset()
        {
            Clean();
            return true;
        }

        public void Dispose() => DisposeCount++;
    }

    /// <summary>A policy (the abstract-class kind, the pool's fast path) that cleans every returned object.</summary>
    private sealed class CleaningPolicy : PooledObjectPolicy<FailingThing>
    {
        public override FailingThing Create() => new();

        public override bool Return(FailingThing obj)
        {
            obj.Clean();
            return true;
        }
    }

    /// <summary>The same, implementing only the interface.</summary>
    private sealed class CleaningInterfacePolicy : IPooledObjectPolicy<FailingThing>
    {
        public FailingThing Create() => new();

        public bool Return(FailingThing obj)
        {
            obj.Clean();
            return true;
        }
    }
}
