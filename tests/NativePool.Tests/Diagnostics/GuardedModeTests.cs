using Xunit.Abstractions;

namespace NativePool.Tests.Diagnostics;

/// <summary>Guarded mode and leak tracking of <see cref="StripedArrayPool{T}"/>.</summary>
public class GuardedModeTests
{
    private readonly ITestOutputHelper _output;

    public GuardedModeTests(ITestOutputHelper output) => _output = output;

    private static StripedArrayPool<byte> CreateGuarded(PoolMisusePolicy policy = PoolMisusePolicy.Throw, Action<PoolMisuse>? onMisuse = null) =>
        StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
        {
            Name = "guarded-" + Guid.NewGuid().ToString("N"),
            Guarded = true,
            MisusePolicy = policy,
            OnMisuse = onMisuse,
            TrimmingEnabled = false,
        });

    [Fact]
    public void AGuardedPoolThrowsOnADoubleReturn()
    {
        StripedArrayPool<byte> pool = CreateGuarded();
        byte[] array = pool.Rent(100);
        pool.Return(array);

        Assert.Throws<InvalidOperationException>(() => pool.Return(array));
    }

    [Fact]
    public void AGuardedPoolThrowsOnAForeignReturnAndDoesNotKeepTheArray()
    {
        StripedArrayPool<byte> pool = CreateGuarded();
        byte[] foreign = new byte[128];

        Assert.Throws<InvalidOperationException>(() => pool.Return(foreign));
        Assert.NotSame(foreign, pool.Rent(128));
    }

    [Fact]
    public void AGuardedPoolThrowsOnTheRentAfterAWriteAfterReturn()
    {
        StripedArrayPool<byte> pool = CreateGuarded();
        byte[] array = pool.Rent(100);
        pool.Return(array);
        array[17] = 42;

        Assert.Throws<InvalidOperationException>(() => pool.Rent(100));
    }

    [Fact]
    public void AGuardedPoolHandsBackAClearedArrayWhenTheReturnAskedForClearing()
    {
        StripedArrayPool<byte> pool = CreateGuarded();
        byte[] array = pool.Rent(100);
        array.AsSpan().Fill(7);
        pool.Return(array, clearArray: true);

        byte[] again = pool.Rent(100);
        Assert.Same(array, again);
        Assert.True(again.AsSpan().IndexOfAnyExcept((byte)0) < 0);
    }

    [Fact]
    public void TheReportPolicyCallsBackWithTheKindAndThePoolName()
    {
        var reports = new List<PoolMisuse>();
        StripedArrayPool<byte> pool = CreateGuarded(PoolMisusePolicy.Report, reports.Add);
        byte[] array = pool.Rent(16);
        pool.Return(array);
        pool.Return(array);
        pool.Return(new byte[16]);

        Assert.Equal([PoolMisuseKind.DoubleReturn, PoolMisuseKind.ForeignReturn], reports.Select(r => r.Kind));
        Assert.All(reports, r => Assert.Equal(pool.Name, r.PoolName));
        Assert.All(reports, r => Assert.Contains(nameof(TheReportPolicyCallsBackWithTheKindAndThePoolName), r.Stack.ToString(), StringComparison.Ordinal));
    }

    [Fact]
    public void TheIgnorePolicyKeepsADoubleReturnedArrayOnce()
    {
        StripedArrayPool<byte> pool = CreateGuarded(PoolMisusePolicy.Ignore);
        byte[] array = pool.Rent(16);
        pool.Return(array);
        pool.Return(array);

        Assert.Same(array, pool.Rent(16));
        Assert.NotSame(array, pool.Rent(16));
    }

    [Fact]
    public void AnUnguardedPoolWithTheIgnoreDoubleReturnPolicyDoesNotThrow()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { DoubleReturnPolicy = PoolMisusePolicy.Ignore, TrimmingEnabled = false });
        byte[] array = pool.Rent(16);
        pool.Return(array);
        pool.Return(array);

        Assert.Same(array, pool.Rent(16));
        Assert.NotSame(array, pool.Rent(16));
    }

    [Fact]
    public void LeakTrackingNamesTheRentStacksOfTheArraysStillOut()
    {
        var pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions { TrackLeaks = true, TrimmingEnabled = false });
        int[] kept1 = pool.Rent(10);
        int[] returned = pool.Rent(10);
        int[] kept2 = pool.Rent(1000);
        pool.Return(returned);

        IReadOnlyList<System.Diagnostics.StackTrace> leaks = pool.GetLeaks();

        Assert.Equal(2, leaks.Count);
        Assert.All(leaks, stack => Assert.Contains(nameof(LeakTrackingNamesTheRentStacksOfTheArraysStillOut), stack.ToString(), StringComparison.Ordinal));
        pool.Return(kept1);
        pool.Return(kept2);
        Assert.Empty(pool.GetLeaks());
    }

    [Fact]
    public void APoolWithoutTrackingReportsNoLeaks()
    {
        var pool = StripedArrayPool<int>.Create();
        int[] kept = pool.Rent(10);

        Assert.False(pool.IsTracking);
        Assert.Empty(pool.GetLeaks());
        pool.Return(kept);
    }

    /// <summary>A million steps (rents, returns and injected misuse) on 8 threads, about 1 % of them each kind of misuse.</summary>
    [Fact]
    public void ASeededRandomRunOnEightThreadsCatchesEveryInjectedMisuseWithNoFalsePositive()
    {
        const int Threads = 8;
        const int Operations = 1_000_000;
        const int PerThread = Operations / Threads;
        var detected = new int[3];
        StripedArrayPool<byte> pool = CreateGuarded(
            PoolMisusePolicy.Report,
            misuse => Interlocked.Increment(ref detected[(int)misuse.Kind])); // Interlocked: reports come from every thread.
        var injected = new int[Threads, 3];

        var watch = System.Diagnostics.Stopwatch.StartNew();
        TestThreads.Run(Threads, thread =>
        {
            var random = new Random(1234 + thread);
            var held = new List<byte[]>();
            for (int i = 0; i < PerThread; i++)
            {
                int roll = random.Next(100);
                if (roll < 3)
                {
                    Inject(pool, random, held, roll, ref injected[thread, roll]);
                }
                else if (held.Count == 0 || (roll < 51 && held.Count < 64))
                {
                    byte[] array = pool.Rent(random.Next(1, 2048));
                    array[0] = (byte)thread;
                    held.Add(array);
                }
                else
                {
                    int index = random.Next(held.Count);
                    byte[] array = held[index];
                    held[index] = held[^1];
                    held.RemoveAt(held.Count - 1);
                    pool.Return(array);
                }
            }

            foreach (byte[] array in held)
            {
                pool.Return(array);
            }
        });
        watch.Stop();

        int[] expected = [.. Enumerable.Range(0, 3).Select(kind => Enumerable.Range(0, Threads).Sum(t => injected[t, kind]))];
        _output.WriteLine(
            $"{Operations} steps on {Threads} threads in {watch.Elapsed.TotalSeconds:F1} s: " +
            string.Join("; ", Enumerable.Range(0, 3).Select(kind => $"{(PoolMisuseKind)kind} injected {expected[kind]}, reported {detected[kind]}")) + ".");
        for (int kind = 0; kind < 3; kind++)
        {
            Assert.True(expected[kind] > 0, $"no misuse of kind {(PoolMisuseKind)kind} was injected");
            Assert.Equal(expected[kind], detected[kind]);
        }

        Assert.Empty(pool.GetLeaks());
    }

    private static void Inject(StripedArrayPool<byte> pool, Random random, List<byte[]> held, int kind, ref int count)
    {
        int length = 16 << random.Next(8);
        switch ((PoolMisuseKind)kind)
        {
            case PoolMisuseKind.DoubleReturn:
            {
                // The second return comes while the array is still parked in this thread's slot: no one else can have it.
                byte[] array = pool.Rent(length);
                pool.Return(array);
                pool.Return(array);
                break;
            }

            case PoolMisuseKind.ForeignReturn:
                pool.Return(new byte[length]);
                break;

            default:
            {
                // Written after its return, then rented straight back by this thread (its slot hands out the last return).
                byte[] array = pool.Rent(length);
                pool.Return(array);
                array[random.Next(length)] = 0;
                byte[] again = pool.Rent(length);
                Assert.Same(array, again);
                held.Add(again);
                break;
            }
        }

        count++;
    }
}
