using NativePool.Tests.ArrayPool;
using NativePool.Tests.ObjectPool;

namespace NativePool.Tests.Engine;

/// <summary>
/// The object pool's strict bound is one budget shared by the stripes and every thread's slot and magazine, so one
/// thread alone can fill it and a thread can keep what it returns whenever the budget has room.
/// </summary>
public sealed class ObjectPoolBudgetTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(8)]
    [InlineData(17)]
    [InlineData(64)]
    [InlineData(1000)]
    public void OneThreadKeepsEveryObjectUpToTheBound(int maximumRetained)
    {
        TestThreads.RunOnNewThread(() =>
        {
            var policy = new CountingPolicy<Thing>();
            var pool = new StripedObjectPool<Thing>(policy, maximumRetained);
            Thing[] first = Enumerable.Range(0, maximumRetained).Select(_ => pool.Get()).ToArray();
            Assert.Equal(maximumRetained, pool.GetStatistics().Allocated);

            foreach (Thing thing in first)
            {
                pool.Return(thing);
            }

            StatisticsAssert.Counts(pool.GetStatistics(), pooled: maximumRetained, dropped: 0);

            Thing[] again = Enumerable.Range(0, maximumRetained).Select(_ => pool.Get()).ToArray();
            Assert.Equal(first.ToHashSet(ReferenceEqualityComparer.Instance), again.ToHashSet(ReferenceEqualityComparer.Instance));
            PoolStatistics afterwards = pool.GetStatistics();
            Assert.Equal(maximumRetained, afterwards.Allocated);
            Assert.Equal(maximumRetained, policy.Created);
            Assert.Equal(0, afterwards.Pooled);
            Assert.Equal(maximumRetained, afterwards.Outstanding);
        });
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(64)]
    public void OneThreadNeverKeepsMoreThanTheBound(int maximumRetained)
    {
        TestThreads.RunOnNewThread(() =>
        {
            var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), maximumRetained);
            Thing[] held = Enumerable.Range(0, maximumRetained + 10).Select(_ => pool.Get()).ToArray();
            foreach (Thing thing in held)
            {
                pool.Return(thing);
            }

            StatisticsAssert.Counts(pool.GetStatistics(), pooled: maximumRetained, dropped: 10, outstanding: 0);
        });
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(4)]
    public void AReturnOnAThreadThatNeverRentedIsKeptWhileTheBoundHasRoom(int maximumRetained)
    {
        // Rented on this thread, returned on another (producer and consumer): the pool holds nothing, so it keeps it.
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), maximumRetained);
        Thing thing = pool.Get();

        // The returning thread keeps it in its slot, and stays alive until the statistics are read: once it exits, its
        // cache may be finalized at any collection and the object is then counted as dropped.
        using StartedThreads returner = TestThreads.Start(1, (_, _) => pool.Return(thing));
        returner.WaitForBodies();

        StatisticsAssert.Counts(pool.GetStatistics(), pooled: 1, dropped: 0);
    }

    [Theory]
    [InlineData(2)]
    [InlineData(4)]
    [InlineData(16)]
    public void LiveThreadsThatOnlyRentDoNotStarveTheBudget(int maximumRetained)
    {
        // As many live threads as the bound each rent one object and keep it; then one returned object must be kept.
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), maximumRetained);

        // Each renter keeps its object and stays alive until the handle is disposed.
        using StartedThreads renters = TestThreads.Start(maximumRetained, (_, _) => GC.KeepAlive(pool.Get()));
        renters.WaitForBodies();

        pool.Return(new Thing());
        StatisticsAssert.Counts(pool.GetStatistics(), allocated: maximumRetained, pooled: 1, dropped: 0);
    }
}
