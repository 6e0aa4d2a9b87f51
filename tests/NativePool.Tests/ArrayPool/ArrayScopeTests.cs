using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// <see cref="StripedArrayPool{T}.RentScoped(int, bool)"/> and <see cref="ArrayScope{T}"/>: lengths and views, one return however
/// often a scope is disposed (and, in a guarded pool, however many copies are), and views that throw once it has ended.
/// </summary>
/// <remarks>
/// The scope is a ref struct, so it cannot be captured by the lambdas of <c>Assert.Throws</c>: the throwing views are
/// checked with <see cref="Throws{TException}"/> over a delegate that receives the scope as an argument.
/// </remarks>
public class ArrayScopeTests
{
    private readonly StripedArrayPool<byte> _pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
    {
        MaximumArrayLength = 1 << 16,
        TrimmingEnabled = false,
    });

    // Guarded: its scopes keep the ledger that makes copies return once at run time (the analyzers forbid copies).
    private readonly StripedArrayPool<byte> _guardedPool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions
    {
        MaximumArrayLength = 1 << 16,
        TrimmingEnabled = false,
        Guarded = true,
    });

    private delegate void ScopeAction(scoped in ArrayScope<byte> scope);

    private StripedArrayPool<byte> Pool(bool guarded) => guarded ? _guardedPool : _pool;

    [Theory]
    [InlineData(1)]
    [InlineData(16)]
    [InlineData(100)]
    [InlineData(4096)]
    [InlineData(65_536)]
    [InlineData(70_000)]
    public void AScopeHasTheRequestedLengthAndViewsOfTheArray(int length)
    {
        using ArrayScope<byte> scope = _pool.RentScoped(length);
        Assert.True(scope.IsActive);
        Assert.Equal(length, scope.Length);
        Assert.Equal(length, scope.Span.Length);
        Assert.Equal(ArrayLeaseTests.ExpectedArrayLength(length), scope.Array.Length);
        Assert.True(Unsafe.AreSame(ref scope.Array[0], ref scope.Span[0]));
        Assert.True(Unsafe.AreSame(ref scope.Array[length - 1], ref scope.Span[length - 1]));
    }

    [Fact]
    public void DisposingAScopeReturnsItsArray()
    {
        ArrayScope<byte> scope = _pool.RentScoped(100);
        byte[] array = scope.Array;
        scope.Dispose();

        Assert.Equal(1, _pool.GetStatistics().Pooled);
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        ReturnedOnce.NextRenterGets(_pool, array, 100);
        #pragma warning restore NP0002
    }

    [Fact]
    public void DisposingAScopeTwiceReturnsTheArrayOnce()
    {
        ArrayScope<byte> scope = _pool.RentScoped(100);
        byte[] array = scope.Array;
        scope.Dispose();
        scope.Dispose();

        StatisticsAssert.Counts(_pool.GetStatistics(), pooled: 1, dropped: 0, outstanding: 0);
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        ReturnedOnce.NextRenterGets(_pool, array, 100);
        #pragma warning restore NP0002
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AfterDisposeTheScopeIsInactiveAndItsViewsThrow(bool guarded)
    {
        ArrayScope<byte> scope = Pool(guarded).RentScoped(100);
        scope.Dispose();

        AssertEnded(scope);
        Assert.Equal(100, scope.Length);
    }

    // Copies of a scope are what the analyzers report as errors (NP0012); the guarded pool's ledger is what is checked here.
#pragma warning disable NP0012
    [Fact]
    public void InAGuardedPoolDisposingACopyAndTheOriginalReturnsTheArrayOnce()
    {
        ArrayScope<byte> scope = _guardedPool.RentScoped(100);
        ArrayScope<byte> copy = scope;
        byte[] array = scope.Array;
        Assert.Same(array, copy.Array);

        copy.Dispose();
        scope.Dispose();
        scope.Dispose();

        StatisticsAssert.Counts(_guardedPool.GetStatistics(), pooled: 1, dropped: 0, outstanding: 0);

        byte[] first = _guardedPool.Rent(100);
        byte[] second = _guardedPool.Rent(100);
        Assert.Same(array, first);
        Assert.NotSame(first, second);
        _guardedPool.Return(first);
        _guardedPool.Return(second);
    }

    [Fact]
    public void InAGuardedPoolAStaleCopyDoesNotEndTheNextScopeOfTheSameArray()
    {
        ArrayScope<byte> first = _guardedPool.RentScoped(100);
        ArrayScope<byte> staleCopy = first;
        byte[] array = first.Array;
        first.Dispose();

        // The next scope gets the same array (and, through the per-thread free list, possibly the same token).
        using ArrayScope<byte> second = _guardedPool.RentScoped(100);
        Assert.Same(array, second.Array);

        staleCopy.Dispose();
        Assert.True(second.IsActive);
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        ReturnedOnce.StaleDisposeReturnedNothing(_guardedPool, array, 100);
        #pragma warning restore NP0002
    }

    [Fact]
    public void InAGuardedPoolAfterDisposeEveryCopyIsInactiveAndItsViewsThrow()
    {
        ArrayScope<byte> scope = _guardedPool.RentScoped(100);
        ArrayScope<byte> copy = scope;
        ArrayScope<byte> otherCopy = copy;
        scope.Dispose();

        AssertEnded(scope);
        AssertEnded(copy);
        AssertEnded(otherCopy);
        Assert.Equal(100, copy.Length);
    }

    // A default pool's scope carries no run-time check for copies (the analyzers rule them out), but a copy disposed right
    // after the original returns the array the thread's slot already holds: the pool refuses it instead of keeping it twice.
    [Fact]
    public void InADefaultPoolACopyDisposedRightAfterTheOriginalIsRefusedAndTheArrayGoesToOneRenter()
    {
        ArrayScope<byte> scope = _pool.RentScoped(100);
        ArrayScope<byte> copy = scope;
        byte[] array = scope.Array;
        scope.Dispose();

        InvalidOperationException? refused = null;
        try
        {
            copy.Dispose();
        }
        catch (InvalidOperationException e)
        {
            refused = e;
        }

        Assert.NotNull(refused);
        StatisticsAssert.Counts(_pool.GetStatistics(), pooled: 1, dropped: 0, outstanding: 0);
        byte[] first = _pool.Rent(100);
        byte[] second = _pool.Rent(100);
        Assert.Same(array, first);
        Assert.NotSame(first, second);
        _pool.Return(first);
        _pool.Return(second);
    }
#pragma warning restore NP0012

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AScopeStaysValidWhileOtherCodeOnItsThreadAbandonsHundredsOfScopes(bool guarded)
    {
        StripedArrayPool<byte> pool = Pool(guarded);
        bool valid = false;
        PoolStatistics before = default;
        PoolStatistics after = default;

        // A thread of its own: a correct component holds its scope while other code abandons 256 (no using), then uses it.
        TestThreads.RunOnNewThread(() =>
        {
            using ArrayScope<byte> mine = pool.RentScoped(100);
            for (int i = 0; i < 256; i++)
            {
                #pragma warning disable NP0004 // The abandoned scopes are what the test is about.
                _ = pool.RentScoped(100);
                #pragma warning restore NP0004
            }

            mine.Span.Fill(7);
            valid = mine.IsActive && mine.Span[99] == 7;
            before = pool.GetStatistics();
        });

        after = pool.GetStatistics();
        Assert.True(valid);
        Assert.Equal(before.Outstanding - 1, after.Outstanding);
    }

    /// <summary>
    /// Ten thousand levels, each holding a scope. A guarded pool walks the stack at every rent, so its walks add up with
    /// the square of the depth: it goes a thousand deep (its scope ledger still grows from 8 slots past a thousand) and
    /// ten thousand under <c>./build.sh stress</c>.
    /// </summary>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    [Trait("Category", "Stress")]
    public void EveryLevelOfADeepRecursionKeepsItsScope(bool guarded)
    {
        StripedArrayPool<byte> pool = Pool(guarded);
        int depth = guarded && !StressDuration.IsLong ? 1_000 : 10_000;
        int broken = -1;
        Exception? failure = null;

        // A stack of its own, large enough for ten thousand frames that each hold a scope.
        var thread = new Thread(
            () =>
            {
                try
                {
                    broken = Recurse(pool, depth);
                }
                catch (Exception exception)
                {
                    failure = exception;
                }
            },
            maxStackSize: 64 * 1024 * 1024);
        thread.Start();
        thread.Join();
        Assert.Null(failure);
        Assert.Equal(0, broken);
        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    /// <summary>One scope per level; after the deeper levels return, this level's scope must still be usable.</summary>
    private static int Recurse(StripedArrayPool<byte> pool, int depth)
    {
        if (depth == 0)
        {
            return 0;
        }

        using ArrayScope<byte> scope = pool.RentScoped(16);
        scope.Span[0] = (byte)depth;
        int broken = Recurse(pool, depth - 1);
        return broken + (scope.IsActive && scope.Span[0] == (byte)depth ? 0 : 1);
    }

    [Fact]
    public void TheDefaultScopeIsInactiveAndDisposesToNothing()
    {
        ArrayScope<byte> scope = default;
        Assert.Equal(0, scope.Length);
        AssertEnded(scope);
        scope.Dispose();
        scope.Dispose();
        Assert.Equal(0, _pool.GetStatistics().Pooled);
    }

    [Fact]
    public void AnEmptyScopeWorksOnAThreadThatNeverRentedAnything()
    {
        bool wasActive = false;
        bool endedAfterDispose = false;
        TestThreads.RunOnNewThread(() =>
        {
            // Rent(0) touches no pool, so this thread has no cache table when the scope is made.
            ArrayScope<byte> scope = _pool.RentScoped(0);
            wasActive = scope.IsActive;
            scope.Dispose();
            endedAfterDispose = !scope.IsActive;
        });

        Assert.True(wasActive);
        Assert.True(endedAfterDispose);
    }

    [Fact]
    public void RentScopedOfZeroGivesAnEmptyScope()
    {
        ArrayScope<byte> scope = _pool.RentScoped(0);
        Assert.True(scope.IsActive);
        Assert.Equal(0, scope.Length);
        Assert.True(scope.Span.IsEmpty);
        Assert.Empty(scope.Array);

        scope.Dispose();
        scope.Dispose();
        Assert.False(scope.IsActive);
        StatisticsAssert.Counts(_pool.GetStatistics(), allocated: 0, pooled: 0, dropped: 0);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    public void RentScopedOfANegativeLengthThrowsArgumentOutOfRange(int length)
    {
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() =>
        {
            _pool.RentScoped(length).Dispose();
        });
        Assert.Equal("minimumLength", exception.ParamName);
        Assert.Equal(0, _pool.GetStatistics().Allocated);
    }

    [Fact]
    public void AScopeLongerThanTheMaximumIsAllocatedExactlyAndDroppedOnDispose()
    {
        int length = _pool.MaximumArrayLength + 1;
        ArrayScope<byte> scope = _pool.RentScoped(length);
        byte[] array = scope.Array;
        Assert.Equal(length, array.Length);
        scope.Dispose();
        scope.Dispose();

        StatisticsAssert.Counts(_pool.GetStatistics(), allocated: 1, pooled: 0, dropped: 1, outstanding: 0);
    }

    private static void AssertEnded(scoped in ArrayScope<byte> scope)
    {
        Assert.False(scope.IsActive);
        Throws<ObjectDisposedException>(in scope, static (scoped in ArrayScope<byte> s) => _ = s.Span.Length);
        Throws<ObjectDisposedException>(in scope, static (scoped in ArrayScope<byte> s) => _ = s.Array);
    }

    private static void Throws<TException>(scoped in ArrayScope<byte> scope, ScopeAction action) where TException : Exception
    {
        try
        {
            action(in scope);
        }
        catch (TException)
        {
            return;
        }

        Assert.Fail($"Expected {typeof(TException).Name}.");
    }
}
