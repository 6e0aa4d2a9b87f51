using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// <see cref="StripedArrayPool{T}.RentLease"/> and <see cref="ArrayLease{T}"/>: lengths and views, return on dispose,
/// and the generation check that keeps a copied or twice-disposed lease from returning its array twice.
/// </summary>
/// <remarks>
/// A lease that returned twice would not throw (the array is with another renter by then, not in the pool, so the
/// double return is invisible to the pool); it would put the array back while someone holds it. So these tests prove
/// "once" with a sequence: after the first dispose the array goes to a new renter, the stale dispose runs, and the next
/// rent must not hand out that array again.
/// </remarks>
public class ArrayLeaseTests
{
    private const int Rounds = 20_000;

    private readonly StripedArrayPool<byte> _pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
    {
        MaximumArrayLength = 1 << 16,
        TrimmingEnabled = false,
    });

    [Theory]
    [InlineData(1)]
    [InlineData(16)]
    [InlineData(100)]
    [InlineData(4096)]
    [InlineData(65_536)]
    [InlineData(70_000)]
    public void ALeaseHasTheRequestedLengthAndViewsOfTheArray(int length)
    {
        using ArrayLease<byte> lease = _pool.RentLease(length);
        Assert.Equal(length, lease.Length);
        Assert.Equal(length, lease.Span.Length);
        Assert.Equal(length, lease.Memory.Length);
        Assert.Equal(ExpectedArrayLength(length), lease.Array.Length);
        Assert.True(Unsafe.AreSame(ref lease.Array[0], ref lease.Span[0]));
        Assert.True(Unsafe.AreSame(ref lease.Array[length - 1], ref lease.Memory.Span[length - 1]));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(4096)]
    public void DisposingALeaseReturnsItsArray(int length)
    {
        ArrayLease<byte> lease = _pool.RentLease(length);
        byte[] array = lease.Array;
        lease.Dispose();

        Assert.Equal(1, _pool.GetStatistics().Pooled);
        Assert.Same(array, _pool.Rent(length));
        Assert.Equal(1, _pool.GetStatistics().Allocated);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ASecondDisposeOfTheLeaseOrOfACopyReturnsNothing(bool disposeACopy)
    {
        ArrayLease<byte> lease = _pool.RentLease(100);
        ArrayLease<byte> copy = lease;
        byte[] array = lease.Array;
        lease.Dispose();
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        byte[] nextRenters = ReturnedOnce.NextRenterGets(_pool, array, 100);
        #pragma warning restore NP0002

        (disposeACopy ? copy : lease).Dispose();

        ReturnedOnce.StaleDisposeReturnedNothing(_pool, nextRenters, 100);
        Assert.Equal(2, _pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void AStaleCopyDoesNotEndTheNextLeaseOfTheSameArray()
    {
        ArrayLease<byte> first = _pool.RentLease(100);
        ArrayLease<byte> staleCopy = first;
        byte[] array = first.Array;
        first.Dispose();

        // The next lease gets the same array (and, through the per-thread free list, the same generation token).
        ArrayLease<byte> second = _pool.RentLease(100);
        Assert.Same(array, second.Array);
        Assert.True(staleCopy == first);
        Assert.True(staleCopy != second);

        staleCopy.Dispose();
        Assert.True(second.IsActive);
        Assert.NotSame(array, _pool.Rent(100));

        // The second lease still returns its array, once.
        second.Dispose();
        Assert.False(second.IsActive);
        Assert.Same(array, _pool.Rent(100));
        second.Dispose();
        Assert.Equal(0, _pool.GetStatistics().Pooled);
        Assert.Equal(2, _pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void CopiesAreEqualAndDistinctLeasesAreNot()
    {
        ArrayLease<byte> lease = _pool.RentLease(100);
        ArrayLease<byte> copy = lease;
        ArrayLease<byte> other = _pool.RentLease(100);

        Assert.True(lease.Equals(copy));
        Assert.True(lease.Equals((object)copy));
        Assert.Equal(lease.GetHashCode(), copy.GetHashCode());
        Assert.False(lease == other);
        Assert.False(lease.Equals(null));
        Assert.False(lease.Equals("not a lease"));

        lease.Dispose();
        other.Dispose();
    }

    [Fact]
    public void RentScopedOfZeroGivesAnEmptyLease()
    {
        ArrayLease<byte> lease = _pool.RentLease(0);
        Assert.Equal(0, lease.Length);
        Assert.True(lease.Span.IsEmpty);
        Assert.True(lease.Memory.IsEmpty);
        Assert.Same(Array.Empty<byte>(), lease.Array);

        lease.Dispose();
        lease.Dispose();
        Assert.False(lease.IsActive);
        StatisticsAssert.Counts(_pool.GetStatistics(), allocated: 0, pooled: 0, dropped: 0);
    }

    [Fact]
    public void TheDefaultLeaseIsInactiveAndDisposable()
    {
        ArrayLease<byte> lease = default;
        Assert.Equal(0, lease.Length);
        Assert.False(lease.IsActive);
        Assert.Throws<ObjectDisposedException>(() => lease.Span.IsEmpty);
        Assert.Throws<ObjectDisposedException>(() => lease.Memory);
        Assert.Throws<ObjectDisposedException>(() => lease.Array);
        lease.Dispose();
        lease.Dispose();
    }

    [Fact]
    public void EveryViewOfADisposedLeaseThrowsOnEveryCopy()
    {
        ArrayLease<byte> lease = _pool.RentLease(100);
        ArrayLease<byte> copy = lease;
        Assert.True(copy.IsActive);
        copy.Dispose();

        foreach (ArrayLease<byte> ended in new[] { lease, copy })
        {
            Assert.False(ended.IsActive);
            Assert.Equal(100, ended.Length);
            Assert.Throws<ObjectDisposedException>(() => ended.Span.Length);
            Assert.Throws<ObjectDisposedException>(() => ended.Memory);
            Assert.Throws<ObjectDisposedException>(() => ended.Array);
        }
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    public void RentScopedOfANegativeLengthThrowsArgumentOutOfRange(int length)
    {
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => _pool.RentLease(length));
        Assert.Equal("minimumLength", exception.ParamName);
        Assert.Equal(0, _pool.GetStatistics().Allocated);
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(false, true)]
    [InlineData(true, false)]
    [InlineData(true, true)]
    public void ClearOnReturnDecidesWhetherTheNextRenterSeesTheContents(bool scoped, bool clearOnReturn)
    {
        byte[] array = scoped ? FillAndEndScope(_pool, clearOnReturn) : FillAndEndLease(_pool, clearOnReturn);

        byte[] again = ReturnedOnce.NextRenterGets(_pool, array, 100);
        if (clearOnReturn)
        {
            Assert.True(TestElements<byte>.IsCleared(again));
        }
        else
        {
            Assert.All(again, value => Assert.Equal(0xAB, value));
        }

        // The lease or scope is disposed (returning the array) after the array was filled.
        static byte[] FillAndEndLease(StripedArrayPool<byte> pool, bool clearOnReturn)
        {
            using ArrayLease<byte> lease = pool.RentLease(100, clearOnReturn);
            return Filled(lease.Array);
        }

        static byte[] FillAndEndScope(StripedArrayPool<byte> pool, bool clearOnReturn)
        {
            using ArrayScope<byte> scope = pool.RentScoped(100, clearOnReturn);
            return Filled(scope.Array);
        }

        static byte[] Filled(byte[] array)
        {
            array.AsSpan().Fill(0xAB);
            return array;
        }
    }

    [Fact]
    public void ALeaseOfObjectsIsClearedOfReferencesWhenThePoolClearsReferences()
    {
        var pool = StripedArrayPool<object>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false, ClearReferencesOnReturn = true });
        ArrayLease<object> lease = pool.RentLease(10);
        object[] array = lease.Array;
        lease.Span.Fill("kept alive?");
        lease.Dispose();

        object[] again = pool.Rent(10);
        Assert.Same(array, again);
        Assert.All(again, item => Assert.Null(item));
        pool.Return(again);
    }

    [Fact]
    public void ALeaseLongerThanTheMaximumIsAllocatedExactlyAndDroppedOnDispose()
    {
        int length = _pool.MaximumArrayLength + 1;
        ArrayLease<byte> lease = _pool.RentLease(length);
        byte[] array = lease.Array;
        Assert.Equal(length, array.Length);
        lease.Dispose();
        lease.Dispose();

        Assert.NotSame(array, _pool.Rent(length));
        StatisticsAssert.Counts(_pool.GetStatistics(), allocated: 2, pooled: 0, dropped: 1);
    }

    [Fact]
    public void TwoCopiesDisposedAtOnceOnTwoThreadsReturnTheArrayOnce()
    {
        // Each round: this thread rents a lease and publishes it; two workers, spinning on the round number so that they
        // start within nanoseconds of each other, each dispose their own copy; then nothing may be outstanding (a double
        // return counts the array as pooled or dropped twice, which reads as -1 outstanding).
        ArrayLease<byte> current = default;
        int published = 0;
        int disposed = 0;

        // Two workers dispose their own copy of each round's lease; they watch the token so that a main thread that
        // failed (and stopped publishing) does not leave them spinning.
        using StartedThreads workers = TestThreads.Start(2, (_, stopping) =>
        {
            for (int round = 1; round <= Rounds; round++)
            {
                var spinner = default(SpinWait);

                // Volatile: waits for this thread to publish round's lease (the write of current comes before it).
                while (Volatile.Read(ref published) < round)
                {
                    if (stopping.IsCancellationRequested)
                    {
                        return;
                    }

                    spinner.SpinOnce(sleep1Threshold: -1);
                }

                ArrayLease<byte> copy = current;
                copy.Dispose();

                // Interlocked: both workers report the end of their dispose to the same counter.
                Interlocked.Increment(ref disposed);
            }
        });

        // Up to Rounds rounds, for at most one stress duration (the stress run's duration lets all of them run).
        string? problem = null;
        long end = Environment.TickCount64 + (long)StressDuration.Value.TotalMilliseconds;
        for (int round = 1; round <= Rounds && !workers.HasFailed && Environment.TickCount64 < end; round++)
        {
            current = _pool.RentLease(100 + (round % 3000));

            // Volatile: publishes the lease above to the spinning workers.
            Volatile.Write(ref published, round);

            var spinner = default(SpinWait);

            // Volatile: both workers have disposed their copy (and their counters are visible) once this reads 2 × round.
            while (Volatile.Read(ref disposed) < 2 * round && !workers.HasFailed)
            {
                spinner.SpinOnce(sleep1Threshold: -1);
            }

            PoolStatistics statistics = _pool.GetStatistics();
            if (statistics.Outstanding != 0 && problem is null)
            {
                problem = $"Round {round}: {statistics}.";
            }
        }

        // Every round waited for both disposes, so the workers are done, or wait for a round that never comes and stop
        // here (the time ran out, or one failed).
        workers.Dispose();
        Assert.Null(problem);
        Assert.Equal(0, _pool.GetStatistics().Outstanding);
    }

    /// <summary>The pool's class length for <paramref name="length"/> (16 and up, powers of two), or the length itself past the maximum.</summary>
    internal static int ExpectedArrayLength(int length) =>
        length > 1 << 16 ? length : Math.Max(16, (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)length));
}
