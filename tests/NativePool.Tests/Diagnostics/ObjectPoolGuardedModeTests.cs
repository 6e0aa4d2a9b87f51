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
        pool.Return(item);

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
        pool.Return(item);
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
        pool.Return(item);
        pool.Return(new Item());

        Assert.Empty(reports);
        Assert.Same(item, pool.Get());
        Assert.NotSame(item, pool.Get());
    }

    [Fact]
    public void LeakTrackingNamesTheGetStacksOfTheObjectsStillOut()
    {
        var pool = new StripedObjectPool<Item>(new CountingPolicy(), new StripedObjectPoolOptions { TrackLeaks = true, TrimmingEnabled = false, MaximumRetained = 64 });
        Item kept1 = pool.Get();
        Item returned = pool.Get();
        Item kept2 = pool.Get();
        pool.Return(returned);

        IReadOnlyList<StackTrace> leaks = pool.GetLeaks();

        Assert.True(pool.IsTracking);
        Assert.Equal(2, leaks.Count);
        Assert.All(leaks, stack => Assert.Contains(nameof(LeakTrackingNamesTheGetStacksOfTheObjectsStillOut), stack.ToString(), StringComparison.Ordinal));
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

    /// <summary>A million steps (gets, returns and injected misuse) on 8 threads, about 1 % of them each kind of misuse.</summary>
    [Fact]
    public void ASeededRandomRunOnEightThreadsCatchesEveryInjectedMisuseWithNoFalsePositive()
    {
        const int Threads = 8;
        const int Operations = 1_000_000;
        const int PerThread = Operations / Threads;
        var detected = new int[2];
        var injected = new int[Threads, 2];
        StripedObjectPool<Item> pool = CreateGuarded(
            new CountingPolicy(),
            PoolMisusePolicy.Report,
            misuse => Interlocked.Increment(ref detected[(int)misuse.Kind]), // Interlocked: reports come from every thread.
            maximumRetained: 4096);

        var watch = Stopwatch.StartNew();
        TestThreads.Run(Threads, thread =>
        {
            var random = new Random(4321 + thread);
            var held = new List<Item>();
            for (int i = 0; i < PerThread; i++)
            {
                int roll = random.Next(100);
                if (roll < 2)
                {
                    Inject(pool, (PoolMisuseKind)roll, held, thread);
                    injected[thread, roll]++;
                }
                else if (held.Count == 0 || (roll < 51 && held.Count < 64))
                {
                    Item item = pool.Get();
                    item.Owner = thread;
                    held.Add(item);
                }
                else
                {
                    int index = random.Next(held.Count);
                    Item item = held[index];
                    held[index] = held[^1];
                    held.RemoveAt(held.Count - 1);

                    // Nobody else was handed the object while this thread held it.
                    Assert.Equal(thread, item.Owner);
                    pool.Return(item);
                }
            }

            foreach (Item item in held)
            {
                pool.Return(item);
            }
        });
        watch.Stop();

        int[] expected = [.. Enumerable.Range(0, 2).Select(kind => Enumerable.Range(0, Threads).Sum(t => injected[t, kind]))];
        _output.WriteLine(
            $"{Operations} steps on {Threads} threads in {watch.Elapsed.TotalSeconds:F1} s: double returns injected {expected[0]}, reported {detected[0]}; " +
            $"foreign returns injected {expected[1]}, reported {detected[1]}.");
        for (int kind = 0; kind < 2; kind++)
        {
            Assert.True(expected[kind] > 0, $"no misuse of kind {(PoolMisuseKind)kind} was injected");
            Assert.Equal(expected[kind], detected[kind]);
        }

        Assert.Empty(pool.GetLeaks());
    }

    private static void Inject(StripedObjectPool<Item> pool, PoolMisuseKind kind, List<Item> held, int thread)
    {
        if (kind == PoolMisuseKind.DoubleReturn)
        {
            // The second return comes while the object is still parked in this thread's slot: no one else can have it,
            // and the next get on this thread proves it stayed there.
            Item item = pool.Get();
            pool.Return(item);
            pool.Return(item);
            Item again = pool.Get();
            Assert.Same(item, again);
            again.Owner = thread;
            held.Add(again);
        }
        else
        {
            pool.Return(new Item());
        }
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
