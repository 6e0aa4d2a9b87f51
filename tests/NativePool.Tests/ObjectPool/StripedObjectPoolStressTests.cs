using System.Collections.Concurrent;
using System.Diagnostics;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// Threads hammering one pool, each holding 1–4 objects at once and stamping a unique token into each: no object is ever
/// held by two threads, none is disposed while held, and the pool never retains more than its bound: the bound less one
/// on the stripes, plus one object in the slot of each thread that uses the pool.
/// </summary>
[Trait("Category", "Stress")]
public sealed class StripedObjectPoolStressTests
{
    private static long s_nextToken;

    public static TheoryData<string, int> Cases
    {
        get
        {
            var data = new TheoryData<string, int>();
            foreach (string pool in new[] { "striped-8", "striped-1", "striped-disposing-16", "microsoft-8" })
            {
                foreach (int threads in new[] { 2, 8, 32 })
                {
                    data.Add(pool, threads);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void NoObjectIsEverHeldByTwoThreadsAndTheBoundHolds(string poolName, int threadCount)
    {
        var policy = new CountingPolicy<DisposableThing>();
        (ObjectPool<DisposableThing> pool, int maximumRetained) = poolName switch
        {
            "striped-8" => (new StripedObjectPool<DisposableThing>(policy, 8), 8),
            "striped-1" => (new StripedObjectPool<DisposableThing>(policy, 1), 1),
            "striped-disposing-16" => (new StripedObjectPool<DisposableThing>(policy, new StripedObjectPoolOptions { MaximumRetained = 16, DisposeItems = true }), 16),
            _ => ((ObjectPool<DisposableThing>)new DefaultObjectPool<DisposableThing>(policy, 8), 8),
        };
        var striped = pool as StripedObjectPool<DisposableThing>;
        int retainedAtMost = striped is null ? maximumRetained : maximumRetained - 1 + threadCount;
        var failures = new ConcurrentQueue<string>();
        TimeSpan duration = StressDuration.Value;
        using var stop = new CancellationTokenSource();
        int held = 0;
        long samples = 0;

        // The sampler checks the bound until the workers stop.
        using StartedThreads sampler = TestThreads.Start(1, (_, _) =>
        {
            while (!stop.IsCancellationRequested)
            {
                if (striped is not null)
                {
                    long pooled = striped.GetStatistics().Pooled;
                    if (pooled > retainedAtMost)
                    {
                        failures.Enqueue($"{pooled} objects pooled, at most {retainedAtMost} allowed (bound {maximumRetained}, {threadCount} threads)");
                    }

                    samples++;
                }

                Thread.Sleep(1);
            }
        });

        // The workers stay alive (parked) after their loop until the checks are done: a dead thread's slot is dropped
        // (not disposed) when its cache is finalized.
        using StartedThreads workers = TestThreads.Start(threadCount, (index, _) =>
        {
            int id = index + 1;
            var random = new Random(id);
            var mine = new DisposableThing[4];
            var tokens = new long[4];
            while (!stop.IsCancellationRequested)
            {
                int count = random.Next(1, 5);
                for (int i = 0; i < count; i++)
                {
                    DisposableThing item = pool.Get();

                    // Interlocked: claims the object; another thread holding it at once has its id there.
                    int previous = Interlocked.CompareExchange(ref item.Holder, id, 0);
                    if (previous != 0)
                    {
                        failures.Enqueue($"thread {id} got an object thread {previous} holds");
                    }

                    if (item.IsDisposed)
                    {
                        failures.Enqueue($"thread {id} got a disposed object");
                    }

                    // Interlocked: tokens are unique across all workers.
                    tokens[i] = Interlocked.Increment(ref s_nextToken);

                    // Volatile: another thread that wrongly got the object reads the token to see it was taken.
                    Volatile.Write(ref item.Token, tokens[i]);
                    mine[i] = item;
                }

                // Interlocked: every worker counts the objects it holds up and down.
                Interlocked.Add(ref held, count);
                Thread.SpinWait(random.Next(0, 50));
                for (int i = count - 1; i >= 0; i--)
                {
                    DisposableThing item = mine[i];

                    // Volatile: reads what another thread that wrongly got the object would have written.
                    if (Volatile.Read(ref item.Token) != tokens[i] || Volatile.Read(ref item.Holder) != id)
                    {
                        failures.Enqueue($"thread {id}: its object was taken by another thread while held");
                    }

                    // Volatile: the release must be visible to the next thread that gets the object from the pool.
                    Volatile.Write(ref item.Holder, 0);
                    mine[i] = null!;
                    pool.Return(item);
                }

                // Interlocked: every worker counts the objects it holds up and down.
                Interlocked.Add(ref held, -count);
            }
        });

        Thread.Sleep(duration);
        stop.Cancel();
        workers.WaitForBodies();
        sampler.WaitForBodies();
        Assert.True(striped is null || samples > 0, "the sampler never ran");
        CheckQuiescentPool(policy, striped, retainedAtMost, failures, held);
    }

    private static void CheckQuiescentPool(
        CountingPolicy<DisposableThing> policy, StripedObjectPool<DisposableThing>? striped, int retainedAtMost, ConcurrentQueue<string> failures, int held)
    {
        Assert.Empty(failures);
        Assert.Equal(0, held);
        Assert.DoesNotContain(policy.CreatedObjects, static item => item.DisposedWhileHeld);

        if (striped is not null)
        {
            // Exact once the workers are quiet (also if a trim pass runs meanwhile): every object the policy made was
            // counted, and every one is back.
            PoolStatistics statistics = striped.GetStatistics();
            StatisticsAssert.Counts(statistics, allocated: policy.Created, outstanding: 0);
            Assert.InRange(statistics.Pooled, 0, retainedAtMost);
            if (striped.DisposesItems)
            {
                // Disposing pools are never trimmed: every object created is pooled or was disposed as overflow.
                int disposed = policy.CreatedObjects.Count(static item => item.IsDisposed);
                Assert.Equal(policy.Created - disposed, statistics.Pooled);
                Assert.Equal(disposed, statistics.Dropped);
                striped.Dispose();
                Assert.All(policy.CreatedObjects, static item => Assert.Equal(1, item.DisposeCount));
            }
        }
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    public void AGetOrReturnRacingDisposeNeverLeaksAnUndisposedObjectNorHandsOutADisposedOne(int threadCount)
    {
        var failures = new ConcurrentQueue<string>();
        var stopwatch = Stopwatch.StartNew();
        TimeSpan duration = StressDuration.Value;
        int rounds = 0;
        while (stopwatch.Elapsed < duration || rounds < 20)
        {
            rounds++;
            var policy = new CountingPolicy<DisposableThing>();
            var pool = new StripedObjectPool<DisposableThing>(policy, new StripedObjectPoolOptions { MaximumRetained = 8, DisposeItems = true });
            using var started = new CountdownEvent(threadCount);

            // Each worker gets and returns until the pool's disposal stops it with ObjectDisposedException.
            using StartedThreads workers = TestThreads.Start(threadCount, (index, _) =>
            {
                int id = index + 1;
                var random = new Random(id * rounds);
                bool signalled = false;
                try
                {
                    while (true)
                    {
                        int count = random.Next(1, 5);
                        var mine = new List<DisposableThing>(count);
                        try
                        {
                            for (int i = 0; i < count; i++)
                            {
                                DisposableThing item = pool.Get();
                                if (item.IsDisposed)
                                {
                                    failures.Enqueue("Get handed out a disposed object");
                                }

                                // Interlocked: claims the object; another thread holding it at once has its id there.
                                if (Interlocked.CompareExchange(ref item.Holder, id, 0) != 0)
                                {
                                    failures.Enqueue("an object was held by two threads");
                                }

                                mine.Add(item);
                            }
                        }
                        finally
                        {
                            foreach (DisposableThing item in mine)
                            {
                                // Volatile: the release must be visible to the next thread that gets the object.
                                Volatile.Write(ref item.Holder, 0);
                                pool.Return(item);
                            }
                        }

                        if (!signalled)
                        {
                            signalled = true;
                            started.Signal();
                        }
                    }
                }
                catch (ObjectDisposedException)
                {
                    // The pool was disposed: the expected end.
                }
                finally
                {
                    // Also when the body fails, so the main thread goes on to the disposal and then sees the failure.
                    if (!signalled)
                    {
                        started.Signal();
                    }
                }
            });

            started.Wait();
            Thread.SpinWait(new Random(rounds).Next(0, 20_000));
            pool.Dispose();
            workers.WaitForBodies();

            foreach (DisposableThing item in policy.CreatedObjects)
            {
                if (item.DisposeCount != 1)
                {
                    failures.Enqueue($"round {rounds}: an object was disposed {item.DisposeCount} times");
                }

                if (item.DisposedWhileHeld)
                {
                    failures.Enqueue($"round {rounds}: an object was disposed while a thread held it");
                }
            }

            Assert.Empty(failures);
        }
    }

}
