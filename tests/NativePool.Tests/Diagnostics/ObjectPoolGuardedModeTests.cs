using System.Diagnostics;
using Microsoft.Extensions.ObjectPool;
using Xunit.Abstractions;

namespace NativePool.Tests.Diagnostics;

/// <summary>Guarded mode and leak tracking of <see cref="StripedObjectPool{T}"/>.</summary>
public sealed class ObjectPoolGuardedModeTests
{
    private readonly ITestOutputHelper _output;

    public ObjectPoolGuardedModeTests(ITestOutputHelper output) => _output = output;

    [Fact]
    public void AGuardedObjectPoolThrowsOnADoubleReturnAndKeepsTheObjectOnce()
    {
        var policy = new CountingPolicy();
        StripedObjectPool<Item> pool = CreateGuarded(policy);
        Item item = pool.Get();
        pool.Return(item);

        Assert.Throws<InvalidOperationException>(() => pool.Return(item));
        Assert.Equal(1, policy.Returns);
        Assert.Same(item, pool.Get());
        Assert.NotSame(item, pool.Get());
    }

    [Fact]
    public void AGuardedObjectPoolThrowsOnAForeignReturnAndDoesNotKeepTheObject()
    {
        var policy = new CountingPolicy();
        StripedObjectPool<Item> pool = CreateGuarded(policy);
        var foreign = new Item();

        Assert.Throws<InvalidOperationException>(() => pool.Return(foreign));
        Assert.Equal(0, policy.Returns);
        Assert.NotSame(foreign, pool.Get());
    }

    [Fact]
    public void AnObjectFromAnotherGuardedPoolIsForeign()
    {
        var reports = new List<PoolMisuse>();
        StripedObjectPool<Item> pool = CreateGuarded(new CountingPolicy(), PoolMisusePolicy.Report, reports.Add);
        StripedObjectPool<Item> other = CreateGuarded(new CountingPolicy());

        pool.Return(other.Get());

        Assert.Equal([PoolMisuseKind.ForeignReturn], reports.Select(r => r.Kind));
    }

    [Fact]
    public void ADoubleReturnOfAnObjectThePoolDroppedIsCaught()
    {
        var reports = new List<PoolMisuse>();
        var policy = new CountingPolicy { Keep = false };
        StripedObjectPool<Item> pool = CreateGuarded(policy, PoolMisusePolicy.Report, reports.Add);
        Item item = pool.Get();
        pool.Return(item);
        #pragma warning disable NP0001 // The double return is the misuse under test.
        pool.Return(item);
        #pragma warning restore NP0001

        Assert.Equal([PoolMisuseKind.DoubleReturn], reports.Select(r => r.Kind));
        Assert.Equal(1, policy.Returns);
    }

    [Fact]
    public void TheReportPolicyCallsBackWithTheKindThePoolNameAndTheStack()
    {
        var reports = new List<PoolMisuse>();
        StripedObjectPool<Item> pool = CreateGuarded(new CountingPolicy(), PoolMisusePolicy.Report, reports.Add);
        Item item = pool.Get();
        pool.Return(item);
        #pragma warning disable NP0001 // The double return is the misuse under test.
        pool.Return(item);
        #pragma warning restore NP0001
        pool.Return(new Item());

        Assert.Equal([PoolMisuseKind.DoubleReturn, PoolMisuseKind.ForeignReturn], reports.Select(r => r.Kind));
        Assert.All(reports, r => Assert.Equal(pool.Name, r.PoolName));
        Assert.All(reports, r => Assert.Contains(nameof(TheReportPolicyCallsBackWithTheKindThePoolNameAndTheStack), r.Stack.ToString(), StringComparison.Ordinal));
        Assert.Same(item, pool.Get());
        Assert.NotSame(item, pool.Get());
    }

    [Fact]
    public void TheIgnorePolicyKeepsADoubleReturnedObjectOnceAndTellsNobody()
    {
        var reports = new List<PoolMisuse>();
        StripedObjectPool<Item> pool = CreateGuarded(new CountingPolicy(), PoolMisusePolicy.Ignore, reports.Add);
        Item item = pool.Get();
        pool.Return(item);
        #pragma warning disable NP0001 // The double return is the misuse under test.
        pool.Return(item);
        #pragma warning restore NP0001
        pool.Return(new Item());

        Assert.Empty(reports);
        Assert.Same(item, pool.Get());
        Assert.NotSame(item, pool.Get());
    }

    [Fact]
    public void LeakTrackingNamesTheGetStacksOfTheObjectsStillOutFromTheCallersFrame()
    {
        var pool = new StripedObjectPool<Item>(new CountingPolicy(), new StripedObjectPoolOptions { TrackLeaks = true, TrimmingEnabled = false, MaximumRetained = 64 });
        Item kept1 = pool.Get();
        Item returned = pool.Get();
        Item kept2 = pool.Get();
        pool.Return(returned);

        IReadOnlyList<StackTrace> leaks = pool.GetLeaks();

        Assert.True(pool.IsTracking);
        Assert.Equal(2, leaks.Count);
        Assert.All(leaks, stack => Assert.Contains(nameof(LeakTrackingNamesTheGetStacksOfTheObjectsStillOutFromTheCallersFrame), stack.ToString(), StringComparison.Ordinal));
        Assert.All(leaks, stack => Assert.Equal(nameof(LeakTrackingNamesTheGetStacksOfTheObjectsStillOutFromTheCallersFrame), stack.GetFrame(0)?.GetMethod()?.Name)); // The caller's frame first: no library frame above it.
        pool.Return(kept1);
        pool.Return(kept2);
        Assert.Empty(pool.GetLeaks());
    }

    [Fact]
    public void PrefilledObjectsAreNotLeaks()
    {
        var pool = new StripedObjectPool<Item>(new CountingPolicy(), new StripedObjectPoolOptions { TrackLeaks = true, TrimmingEnabled = false, MaximumRetained = 8 });
        pool.Prefill(8);

        Assert.Empty(pool.GetLeaks());
    }

    [Fact]
    public void AnObjectPoolWithoutTrackingReportsNoLeaks()
    {
        var pool = new StripedObjectPool<Item>(new CountingPolicy(), new StripedObjectPoolOptions { TrimmingEnabled = false });
        Item kept = pool.Get();

        Assert.False(pool.IsTracking);
        Assert.Empty(pool.GetLeaks());
        pool.Return(kept);
    }

    /// <summary>
    /// A hundred thousand steps on 8 threads (a million under <c>./build.sh stress</c>): gets and returns, raw and
    /// under leases, with misuse of every shape injected. Double returns while the object is in the pool and foreign
    /// returns are caught every time, with no false positive; a stale lease dispose never returns anything; a write
    /// after return is not detectable (objects carry no poison); a stale raw return is caught only when the object was
    /// still in the pool, and when it is not, the run observes the consequence: the object comes straight back out of
    /// the pool while its holder still has it.
    /// </summary>
    [Fact]
    [Trait("Category", "Stress")]
    public void ASeededRunOnEightThreadsCatchesEveryCatchableMisuseAndShowsWhatAStaleReturnDoes()
    {
        var run = new SeededMisuseRun<Item>(threads: 8, steps: StressDuration.IsLong ? 1_000_000 : 100_000, seed: 4321);
        StripedObjectPool<Item> pool = CreateGuarded(new CountingPolicy(), PoolMisusePolicy.Report, run.OnMisuse, maximumRetained: 1 << 16);

        MisuseRunResult result = run.Run(new ObjectSubject(pool));

        _output.WriteLine(result.Describe(new Dictionary<MisuseShape, string>
        {
            [MisuseShape.WriteAfterReturnByAnotherThread] = "not detectable: objects carry no poison pattern",
            [MisuseShape.StaleLeaseDispose] = "caught: the copy's dispose returned nothing",
            [MisuseShape.StaleDoubleReturn] = "no per-get identity in a bare reference: only a repeat while it is still in the pool can be caught",
        }));
        foreach (string failure in result.Failures)
        {
            _output.WriteLine(failure);
        }

        result.AssertCatchesAndContains([MisuseShape.DoubleReturnWhilePooled, MisuseShape.ForeignReturn, MisuseShape.StaleLeaseDispose]);

        // Injected, and by design never reported.
        Assert.True(result.InjectedOf(MisuseShape.WriteAfterReturnByAnotherThread) > 0, "no write after return was injected");
        Assert.Equal(0, result.CaughtOf(MisuseShape.WriteAfterReturnByAnotherThread));

        // Every object is back: nothing outstanding, nothing leaked (an object handed out twice is returned once).
        Assert.Empty(pool.GetLeaks());
        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    private static StripedObjectPool<Item> CreateGuarded(
        CountingPolicy policy,
        PoolMisusePolicy misusePolicy = PoolMisusePolicy.Throw,
        Action<PoolMisuse>? onMisuse = null,
        int maximumRetained = 64) =>
        new(policy, new StripedObjectPoolOptions
        {
            Name = "guarded-objects-" + Guid.NewGuid().ToString("N"),
            Guarded = true,
            MisusePolicy = misusePolicy,
            OnMisuse = onMisuse,
            MaximumRetained = maximumRetained,
            TrimmingEnabled = false,
        });

    /// <summary>A pooled object that remembers which thread holds it.</summary>
    private sealed class Item
    {
        public int Owner { get; set; } = -1;

        /// <summary>What a write after return changes.</summary>
        public int Scribbled { get; set; }
    }

    /// <summary>A guarded object pool as a misuse run sees it.</summary>
    private sealed class ObjectSubject(StripedObjectPool<Item> pool) : IMisuseSubject<Item>
    {
        public bool DetectsWriteAfterReturn => false;

        public int NextSize(Random random) => 0;

        public int SizeOf(Item item) => 0;

        public Item Rent(int size) => pool.Get();

        public void Return(Item item) => pool.Return(item);

        public MisuseLease<Item> RentLease(int size)
        {
            ObjectLease<Item> lease = pool.RentLease();
            return new Lease(lease, lease.Value);
        }

        public Item CreateForeign(int size) => new();

        public void Stamp(Item item, int thread) => item.Owner = thread;

        public void Scribble(Item item, int where) => item.Scribbled = where;

        private sealed class Lease(ObjectLease<Item> lease, Item item) : MisuseLease<Item>(item)
        {
            public override bool IsActive => lease.IsActive;

            public override void Dispose() => lease.Dispose();

            public override MisuseLease<Item> Copy() => new Lease(lease, Item);
        }
    }

    /// <summary>Creates items and counts the returns it sees; keeps them unless told not to.</summary>
    private sealed class CountingPolicy : PooledObjectPolicy<Item>
    {
        private int _returns;

        public bool Keep { get; init; } = true;

        public int Returns => Volatile.Read(ref _returns); // Volatile: read by the test thread after other threads returned.

        public override Item Create() => new();

        public override bool Return(Item obj)
        {
            Interlocked.Increment(ref _returns); // Interlocked: returns come from every thread.
            return Keep;
        }
    }
}
