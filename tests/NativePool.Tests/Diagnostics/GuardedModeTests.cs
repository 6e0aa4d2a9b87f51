using System.Runtime.CompilerServices;
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
        #pragma warning disable NP0002 // The write after return is the misuse under test.
        array[17] = 42;
        #pragma warning restore NP0002

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
        pool.Return(again);
    }

    [Fact]
    public void TheReportPolicyCallsBackWithTheKindAndThePoolName()
    {
        var reports = new List<PoolMisuse>();
        StripedArrayPool<byte> pool = CreateGuarded(PoolMisusePolicy.Report, reports.Add);
        byte[] array = pool.Rent(16);
        pool.Return(array);
        #pragma warning disable NP0001 // The double return is the misuse under test.
        pool.Return(array);
        #pragma warning restore NP0001
        pool.Return(new byte[16]);

        Assert.Equal([PoolMisuseKind.DoubleReturn, PoolMisuseKind.ForeignReturn], reports.Select(r => r.Kind));
        Assert.All(reports, r => Assert.Equal(pool.Name, r.PoolName));
        Assert.All(reports, r => Assert.Contains(nameof(TheReportPolicyCallsBackWithTheKindAndThePoolName), r.Stack.ToString(), StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(PoolMisusePolicy.Throw, 2)]
    [InlineData(PoolMisusePolicy.Report, 2)]
    [InlineData(PoolMisusePolicy.Ignore, 0)]
    public void AGuardedPoolCountsEachDoubleAndForeignReturnItDoesNotIgnoreInItsStatistics(PoolMisusePolicy policy, int expected)
    {
        StripedArrayPool<byte> pool = CreateGuarded(policy);
        byte[] array = pool.Rent(16);
        pool.Return(array);
        Misuse(() => pool.Return(array), policy);
        Misuse(() => pool.Return(new byte[16]), policy);

        Assert.Equal(expected, pool.GetStatistics().Misuses);

        static void Misuse(Action misuse, PoolMisusePolicy policy)
        {
            if (policy == PoolMisusePolicy.Throw)
            {
                Assert.Throws<InvalidOperationException>(misuse);
            }
            else
            {
                misuse();
            }
        }
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void TheIgnorePolicyKeepsADoubleReturnedArrayOnceGuardedOrNot(bool guarded)
    {
        StripedArrayPool<byte> pool = guarded
            ? CreateGuarded(PoolMisusePolicy.Ignore)
            : StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { DoubleReturnPolicy = PoolMisusePolicy.Ignore, TrimmingEnabled = false });
        byte[] array = pool.Rent(16);
        pool.Return(array);
        #pragma warning disable NP0001 // The double return is the misuse under test.
        pool.Return(array);
        #pragma warning restore NP0001

        Assert.Same(array, pool.Rent(16));
        Assert.NotSame(array, pool.Rent(16));
    }

    [Fact]
    public void LeakTrackingNamesTheRentStacksOfTheArraysStillOutFromTheCallersFrame()
    {
        var pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions { TrackLeaks = true, TrimmingEnabled = false });
        int[] kept1 = pool.Rent(10);
        int[] returned = pool.Rent(10);
        int[] kept2 = pool.Rent(1000);
        pool.Return(returned);

        IReadOnlyList<System.Diagnostics.StackTrace> leaks = pool.GetLeaks();

        Assert.Equal(2, leaks.Count);
        Assert.All(leaks, stack => Assert.Contains(nameof(LeakTrackingNamesTheRentStacksOfTheArraysStillOutFromTheCallersFrame), stack.ToString(), StringComparison.Ordinal));
        Assert.All(leaks, stack => Assert.Equal(nameof(LeakTrackingNamesTheRentStacksOfTheArraysStillOutFromTheCallersFrame), stack.GetFrame(0)?.GetMethod()?.Name)); // The caller's frame first: no library frame above it.
        pool.Return(kept1);
        pool.Return(kept2);
        Assert.Empty(pool.GetLeaks());
    }

    [Fact]
    public void ARentStackFromDeepRecursionKeepsOnlyItsInnermostFrames()
    {
        var pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions { TrackLeaks = true, TrimmingEnabled = false });
        int[]? kept = null;

        // Four times as deep as the bound: the stack past it is left out, the renting call and its callers are kept.
        TestThreads.RunOnNewThread(() => kept = RentAtDepth(pool, 4 * ItemGuard<int[]>.MaxStackFrames));

        System.Diagnostics.StackTrace leak = Assert.Single(pool.GetLeaks());
        System.Diagnostics.StackFrame[] frames = leak.GetFrames();
        Assert.Equal(ItemGuard<int[]>.MaxStackFrames, frames.Length);

        // The outer levels are what is cut: past the pool's own frames, every frame kept is a level of the recursion.
        string?[] callers = [.. frames.Where(frame => !IsLibraryFrame(frame)).Select(frame => frame.GetMethod()?.Name)];
        Assert.NotEmpty(callers);
        Assert.All(callers, name => Assert.Equal(nameof(RentAtDepth), name));
        pool.Return(kept!);
        Assert.Empty(pool.GetLeaks());
    }

    private static bool IsLibraryFrame(System.Diagnostics.StackFrame frame)
    {
        System.Reflection.Assembly? assembly = frame.GetMethod()?.DeclaringType?.Assembly;
        return assembly == typeof(StripedArrayPool<>).Assembly || assembly == typeof(StripedPool<>).Assembly;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int[] RentAtDepth(StripedArrayPool<int> pool, int depth)
    {
        int[] array = depth == 0 ? pool.Rent(10) : RentAtDepth(pool, depth - 1);

        // Work after the call keeps it from being a tail call, so every level keeps its frame.
        GC.KeepAlive(pool);
        return array;
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

    /// <summary>
    /// A hundred thousand steps on 8 threads (a million under <c>./build.sh stress</c>): rents and returns, raw and
    /// under leases, with misuse of every shape injected. Every shape the guard can see is caught every time, with no
    /// false positive; a stale lease dispose never returns anything; a stale raw return is caught only when the array
    /// was still in the pool, and when it is not, the run observes the consequence: the array comes straight back out
    /// of the pool while its holder still has it.
    /// </summary>
    [Fact]
    [Trait("Category", "Stress")]
    public void ASeededRunOnEightThreadsCatchesEveryCatchableMisuseAndShowsWhatAStaleReturnDoes()
    {
        var run = new SeededMisuseRun<byte[]>(threads: 8, steps: StressDuration.IsLong ? 1_000_000 : 100_000, seed: 1234);
        StripedArrayPool<byte> pool = CreateGuarded(PoolMisusePolicy.Report, run.OnMisuse);

        MisuseRunResult result = run.Run(new ArraySubject(pool));

        _output.WriteLine(result.Describe(new Dictionary<MisuseShape, string>
        {
            [MisuseShape.StaleLeaseDispose] = "caught: the copy's dispose returned nothing",
            [MisuseShape.StaleDoubleReturn] = "no per-rent identity in a raw array: only a repeat while it is still in the pool can be caught",
        }));
        foreach (string failure in result.Failures)
        {
            _output.WriteLine(failure);
        }

        result.AssertCatchesAndContains(Enum.GetValues<MisuseShape>().Where(shape => shape != MisuseShape.StaleDoubleReturn));

        // Every array is back: nothing outstanding, nothing leaked (an array handed out twice is returned once).
        Assert.Empty(pool.GetLeaks());
        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    /// <summary>A guarded byte-array pool as a misuse run sees it.</summary>
    private sealed class ArraySubject(StripedArrayPool<byte> pool) : IMisuseSubject<byte[]>
    {
        public bool DetectsWriteAfterReturn => true;

        public int NextSize(Random random) => 16 << random.Next(8);

        public int SizeOf(byte[] item) => item.Length;

        public byte[] Rent(int size) => pool.Rent(size);

        public void Return(byte[] item) => pool.Return(item);

        public MisuseLease<byte[]> RentLease(int size)
        {
            ArrayLease<byte> lease = pool.RentLease(size);
            return new Lease(lease, lease.Array);
        }

        public byte[] CreateForeign(int size) => new byte[size];

        public void Stamp(byte[] item, int thread) => item[0] = (byte)thread;

        // Any value but the poison byte damages the pattern.
        public void Scribble(byte[] item, int where) => item[(where & int.MaxValue) % item.Length] = 0;

        private sealed class Lease(ArrayLease<byte> lease, byte[] array) : MisuseLease<byte[]>(array)
        {
            public override bool IsActive => lease.IsActive;

            public override void Dispose() => lease.Dispose();

            public override MisuseLease<byte[]> Copy() => new Lease(lease, Item);
        }
    }
}
