using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using Xunit.Abstractions;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// Many threads rent, return and hand arrays to each other on one instance pool for a bounded time; every rented array
/// carries a unique token, and a global registry of held arrays proves no array is ever held by two holders at once.
/// </summary>
/// <remarks>
/// <para>
/// Each case runs for <c>NATIVEPOOL_STRESS_SECONDS</c> seconds (default 3). A worker's step is one of: rent an array of
/// a random size (some over the pool's maximum), register it as held (a second registration of the same array is a
/// double hand-out) and stamp a fresh token into it; check a held array's stamp, unregister it and return it (sometimes
/// with <c>clearArray</c>); check a held array's stamp and hand it to the shared queue (kept short, so arrays keep
/// cycling through the pool); take an array from the queue, check its stamp and hold it, so that it is returned by a
/// thread that did not rent it. One step in a thousand is a burst: more arrays of one length than the stripes keep,
/// rented and returned at once, so stripes fill up, returns walk to other stripes and drop, and rents steal.
/// </para>
/// <para>
/// Detection is two-fold: the registry catches the pool handing out an array someone holds, and the stamp catches
/// anyone (a second renter, a stray clear) writing into an array while it is held. At the end, with every array
/// returned and the workers parked, the statistics must balance exactly and the pool must hold no more than its bound;
/// the bound is also sampled while the workers run. The trimming variants run a thread that trims (by age, on a clock
/// that jumps an hour per reading, and everything every eighth pass) all along, racing the workers for stripes and slots.
/// </para>
/// </remarks>
[Trait("Category", "Stress")]
public class StripedArrayPoolStressTests
{
    private const int MaxHeldPerThread = 6;
    private const int MaxQueued = 16;
    private const int StripeCount = 4;
    private const int ArraysPerStripe = 8;
    private const int MaximumArrayLength = 1 << 16;
    private const int MinimumStepsPerThread = 1000;

    // Mostly small lengths, so most rents hit the pool; one rent in twenty is large, and 70 000 is over the maximum
    // (allocated exactly and dropped on return).
    private static readonly int[] s_smallLengths = [1, 16, 17, 100, 1000];
    private static readonly int[] s_largeLengths = [4096, 5000, MaximumArrayLength, 70_000];
    private static readonly int[] s_lengths = [.. s_smallLengths, .. s_largeLengths];

    private static long s_lastToken;

    private readonly ITestOutputHelper _output;

    public StripedArrayPoolStressTests(ITestOutputHelper output) => _output = output;

    /// <summary>Writes and checks the unique token of one holder in an array.</summary>
    private interface IStamp<T>
    {
        /// <summary>Whether a freshly rented array is as the pool promises (reference arrays: no references left).</summary>
        public bool IsFresh(T[] array);

        /// <summary>Stamps <paramref name="token"/> into a freshly rented array.</summary>
        public void Write(T[] array, long token);

        /// <summary>Whether the array still carries <paramref name="token"/>.</summary>
        public bool Holds(T[] array, long token);
    }

    public static TimeSpan Duration => StressDuration.Value;

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(32)]
    public void ByteArraysAreNeverHeldByTwoHoldersAtOnce(int threads)
    {
        Run(threads, new ByteStamp());
    }

    [Theory]
    [InlineData(2)]
    [InlineData(8)]
    [InlineData(32)]
    public void ObjectArraysAreNeverHeldByTwoHoldersAtOnce(int threads)
    {
        Run(threads, new ObjectStamp());
    }

    [Theory]
    [InlineData(8)]
    public void ByteArraysAreNeverHeldByTwoHoldersAtOnceWhileTrimmingRuns(int threads)
    {
        Run(threads, new ByteStamp(), trimConcurrently: true);
    }

    [Theory]
    [InlineData(8)]
    public void ObjectArraysAreNeverHeldByTwoHoldersAtOnceWhileTrimmingRuns(int threads)
    {
        Run(threads, new ObjectStamp(), trimConcurrently: true);
    }

    private void Run<T>(int threadCount, IStamp<T> stamp, bool trimConcurrently = false)
    {
        var pool = StripedArrayPool<T>.Create(new StripedArrayPoolOptions
        {
            StripeCount = StripeCount,
            ItemsPerStripe = ArraysPerStripe,
            MaximumArrayLength = MaximumArrayLength,

            // Reference-holding arrays must come back cleared (checked on every rent): the opt-in clearing is on.
            ClearReferencesOnReturn = true,

            // Every reading of this clock is an hour after the previous one, so each trim pass finds idle stripes and
            // idle threads' slots old enough to release.
            TimeProvider = trimConcurrently ? new HourPerReadingClock() : null,
        });
        var run = new StressRun<T>(pool, stamp);
        long deadline = Stopwatch.GetTimestamp() + (long)(Duration.TotalSeconds * Stopwatch.Frequency);

        // The workers stay alive (parked) after their work until the statistics below are read, so their caches count as
        // live pool tiers; disposing the handle ends them.
        using StartedThreads workers = TestThreads.Start(threadCount, (seed, _) => run.Work(seed, deadline));

        // With trimming: a thread trims in a loop while the workers run, taking items out of the stripes and asking the
        // workers to flush their magazines.
        int passes = 0;
        long released = 0;
        using StartedThreads? trimmer = !trimConcurrently ? null : TestThreads.Start(1, (_, stopping) =>
        {
            while (!stopping.IsCancellationRequested)
            {
                // Mostly age-based passes; every eighth releases everything (what Clear and high memory pressure do).
                released += ++passes % 8 == 0 ? pool.Clear() : pool.Trim();
                Thread.Yield();
            }
        });

        // Sample the retention bound while the workers run: stripe counts never exceed capacity, thread slots hold one.
        long bound = run.RetentionBound(threadCount + 1);
        while (!workers.WaitForBodies(TimeSpan.FromMilliseconds(20)))
        {
            long pooled = pool.GetStatistics().Pooled;
            if (pooled > bound)
            {
                run.Fail($"{pooled} arrays pooled while running, more than the bound {bound}.");
            }
        }

        trimmer?.Dispose();

        // Quiescent: every worker returned what it held; the queue's arrays go back from this thread.
        int drained = run.DrainHandOffs();
        PoolStatistics quiet = pool.GetStatistics();
        workers.Dispose();

        _output.WriteLine($"{threadCount} threads, {Duration.TotalSeconds} s: {quiet}; bound {bound}; {passes} trim passes released {released}.");
        Assert.Null(run.Failure);
        Assert.Empty(run.Holders);

        // Exact, also while trimming runs: every array the pool made is back (the trimmer never takes an item out of a
        // live thread's slot, see TrimRaceTests), and each was made by a rent that missed.
        Assert.Equal(0, quiet.Outstanding);
        Assert.InRange(quiet.Allocated, 1, run.Rents);
        Assert.InRange(quiet.Pooled, 0, bound);
        run.AssertStripesWithinCapacity();

        // The workers are gone: once their caches are finalized (only this thread's, if the drain made one, is left),
        // the arrays parked in them count as dropped, and still nothing is outstanding.
        int liveCaches = drained > 0 ? 1 : 0;
        Finalization.WaitUntil(
            () => pool.Engine.CountLiveThreadCaches() == liveCaches,
            () => $"{pool.Engine.CountLiveThreadCaches()} live thread caches, {liveCaches} expected");
        PoolStatistics afterwards = pool.GetStatistics();
        StatisticsAssert.Counts(afterwards, allocated: quiet.Allocated, outstanding: 0);
        Assert.InRange(afterwards.Pooled, 0, bound);
    }

    /// <summary>The shared state of one stress run.</summary>
    private sealed class StressRun<T>
    {
        private readonly StripedArrayPool<T> _pool;
        private readonly IStamp<T> _stamp;
        private readonly ConcurrentQueue<(T[] Array, long Token)> _handOffs = new();
        private int _queued;
        private long _rents;
        private string? _failure;

        public StressRun(StripedArrayPool<T> pool, IStamp<T> stamp)
        {
            _pool = pool;
            _stamp = stamp;
        }

        /// <summary>Every array currently held by a worker or waiting in the hand-off queue, with its holder's token.</summary>
        public ConcurrentDictionary<T[], long> Holders { get; } = new(ReferenceEqualityComparer.Instance);

        // Volatile: workers add to these concurrently; the main thread reads them after the workers signalled.
        public long Rents => Volatile.Read(ref _rents);

        public string? Failure => Volatile.Read(ref _failure);

        public void Fail(string message)
        {
            // Interlocked: several workers may fail at once; the first message is kept.
            Interlocked.CompareExchange(ref _failure, message, null);
        }

        /// <summary>The most arrays the pool may hold: every stripe of every class used full, plus a slot and a full magazine per class per thread.</summary>
        public long RetentionBound(int threads)
        {
            long bound = 0;
            foreach (int sizeClass in ClassesUsed())
            {
                long perThread = 1 + _pool.Engine.MagazineCapacity(sizeClass);
                bound += ((long)_pool.StripeCount * _pool.Engine.CapacityPerStripe(sizeClass)) + (threads * perThread);
            }

            return bound;
        }

        public void AssertStripesWithinCapacity()
        {
            foreach (int sizeClass in ClassesUsed())
            {
                StripeSet<T[]>? stripes = _pool.Engine.GetStripes(sizeClass);
                for (int stripe = 0; stripe < (stripes?.StripeCount ?? 0); stripe++)
                {
                    Assert.InRange(stripes!.CountOf(stripe), 0, _pool.Engine.CapacityPerStripe(sizeClass));
                }
            }
        }

        public void Work(int seed, long deadline)
        {
            var random = new Random(seed);
            var held = new List<(T[] Array, long Token)>(MaxHeldPerThread);
            long rents = 0;
            long steps = 0;
            try
            {
                // At least MinimumStepsPerThread steps each, however late the thread gets a core on a loaded machine.
                while (Failure is null && (steps++ < MinimumStepsPerThread || Stopwatch.GetTimestamp() < deadline))
                {
                    int step = random.Next(1000);
                    if (step == 0)
                    {
                        // Now and then a burst of one length, more than the stripes keep: fills them, drops the rest.
                        rents += Burst(s_smallLengths[random.Next(s_smallLengths.Length)]);
                        continue;
                    }

                    step /= 10;
                    if (held.Count == 0 || (held.Count < MaxHeldPerThread && step < 40))
                    {
                        int[] lengths = random.Next(20) == 0 ? s_largeLengths : s_smallLengths;
                        held.Add(Rent(lengths[random.Next(lengths.Length)]));
                        rents++;
                    }
                    else if (step < 55 && _handOffs.TryDequeue(out (T[] Array, long Token) handedOver))
                    {
                        // Interlocked: every worker counts the queue's length up and down.
                        Interlocked.Decrement(ref _queued);
                        Check(handedOver);
                        held.Add(handedOver);
                    }
                    // Volatile: other workers move the count; a stale read only lets the queue run one or two long or short.
                    else if (step < 70 && Volatile.Read(ref _queued) < MaxQueued)
                    {
                        (T[] Array, long Token) item = TakeAt(held, random.Next(held.Count));
                        Check(item);

                        // Interlocked: every worker counts the queue's length up and down (a bound, so it stays short).
                        Interlocked.Increment(ref _queued);
                        _handOffs.Enqueue(item);
                    }
                    else
                    {
                        Return(TakeAt(held, random.Next(held.Count)), clearArray: random.Next(8) == 0);
                    }
                }

                foreach ((T[] Array, long Token) item in held)
                {
                    Return(item, clearArray: false);
                }
            }
            catch (Exception exception)
            {
                Fail($"Worker {seed} threw {exception}");
            }
            finally
            {
                // Interlocked: every worker adds its count at the end.
                Interlocked.Add(ref _rents, rents);
            }
        }

        private int Burst(int length)
        {
            var burst = new (T[] Array, long Token)[(StripeCount * ArraysPerStripe) + 8];
            for (int i = 0; i < burst.Length; i++)
            {
                burst[i] = Rent(length);
            }

            for (int i = burst.Length - 1; i >= 0; i--)
            {
                Return(burst[i], clearArray: false);
            }

            return burst.Length;
        }

        /// <summary>Returns the arrays left in the hand-off queue from the calling thread; returns how many there were.</summary>
        public int DrainHandOffs()
        {
            int drained = 0;
            while (_handOffs.TryDequeue(out (T[] Array, long Token) item))
            {
                Return(item, clearArray: false);
                drained++;
            }

            return drained;
        }

        private static (T[] Array, long Token) TakeAt(List<(T[] Array, long Token)> held, int index)
        {
            (T[] Array, long Token) item = held[index];
            held[index] = held[^1];
            held.RemoveAt(held.Count - 1);
            return item;
        }

        private (T[] Array, long Token) Rent(int length)
        {
            T[] array = _pool.Rent(length);
            int expected = length > MaximumArrayLength ? length : Math.Max(16, (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)length));
            if (array.Length != expected)
            {
                Fail($"Rent({length}) gave {array.Length} elements, expected {expected}.");
            }

            if (!_stamp.IsFresh(array))
            {
                Fail($"Rent({length}) gave an array of references that was not cleared.");
            }

            // Interlocked: tokens are unique across all workers.
            long token = Interlocked.Increment(ref s_lastToken);

            // Register before stamping: if the pool handed this array to someone else who still holds it, this fails.
            if (!Holders.TryAdd(array, token))
            {
                Fail($"An array of {array.Length} elements was handed out while holder {Holders.GetValueOrDefault(array)} still held it.");
            }

            _stamp.Write(array, token);
            return (array, token);
        }

        private void Return((T[] Array, long Token) item, bool clearArray)
        {
            Check(item);

            // Unregister before returning: once returned, another thread may rent and register it at once.
            if (!Holders.TryRemove(new KeyValuePair<T[], long>(item.Array, item.Token)))
            {
                Fail($"Holder {item.Token} was not registered as holding its array.");
            }

            _pool.Return(item.Array, clearArray);
        }

        private void Check((T[] Array, long Token) item)
        {
            if (!_stamp.Holds(item.Array, item.Token))
            {
                Fail($"The stamp of holder {item.Token} was overwritten while it held the array (length {item.Array.Length}).");
            }
        }

        private static HashSet<int> ClassesUsed() =>
            s_lengths.Where(length => length <= MaximumArrayLength).Select(length => SizeClasses.GetIndex(length)).ToHashSet();
    }

    /// <summary>The token in the first and the last eight bytes.</summary>
    private sealed class ByteStamp : IStamp<byte>
    {
        public bool IsFresh(byte[] array) => true;

        public void Write(byte[] array, long token)
        {
            BinaryPrimitives.WriteInt64LittleEndian(array, token);
            BinaryPrimitives.WriteInt64LittleEndian(array.AsSpan(array.Length - 8), token);
        }

        public bool Holds(byte[] array, long token) =>
            BinaryPrimitives.ReadInt64LittleEndian(array) == token &&
            BinaryPrimitives.ReadInt64LittleEndian(array.AsSpan(array.Length - 8)) == token;
    }

    /// <summary>A unique token object in the first and the last element.</summary>
    private sealed class ObjectStamp : IStamp<object>
    {
        public bool IsFresh(object[] array) => array[0] is null && array[^1] is null;

        public void Write(object[] array, long token)
        {
            var stamp = new Token(token);
            array[0] = stamp;
            array[^1] = stamp;
        }

        public bool Holds(object[] array, long token) =>
            array[0] is Token stamp && stamp.Value == token && ReferenceEquals(array[^1], stamp);

        private sealed record Token(long Value);
    }
}
