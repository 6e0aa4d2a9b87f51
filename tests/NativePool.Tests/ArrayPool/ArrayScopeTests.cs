using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// <see cref="StripedArrayPool{T}.RentScoped(int, bool)"/> and <see cref="ArrayScope{T}"/>: lengths and views, one return however
/// many copies are disposed, and views that throw once the scope has ended.
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

    private delegate void ScopeAction(ArrayScope<byte> scope);

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
    public void DisposingACopyAndTheOriginalReturnsTheArrayOnce()
    {
        ArrayScope<byte> scope = _pool.RentScoped(100);
        ArrayScope<byte> copy = scope;
        byte[] array = scope.Array;
        Assert.Same(array, copy.Array);

        copy.Dispose();
        scope.Dispose();
        scope.Dispose();

        StatisticsAssert.Counts(_pool.GetStatistics(), pooled: 1, dropped: 0, outstanding: 0);

        byte[] first = _pool.Rent(100);
        byte[] second = _pool.Rent(100);
        Assert.Same(array, first);
        Assert.NotSame(first, second);
        _pool.Return(first);
        _pool.Return(second);
    }

    [Fact]
    public void AStaleCopyDoesNotEndTheNextScopeOfTheSameArray()
    {
        ArrayScope<byte> first = _pool.RentScoped(100);
        ArrayScope<byte> staleCopy = first;
        byte[] array = first.Array;
        first.Dispose();

        // The next scope gets the same array (and, through the per-thread free list, possibly the same token).
        using ArrayScope<byte> second = _pool.RentScoped(100);
        Assert.Same(array, second.Array);

        staleCopy.Dispose();
        Assert.True(second.IsActive);
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        ReturnedOnce.StaleDisposeReturnedNothing(_pool, array, 100);
        #pragma warning restore NP0002
    }

    [Fact]
    public void AfterDisposeEveryCopyIsInactiveAndItsViewsThrow()
    {
        ArrayScope<byte> scope = _pool.RentScoped(100);
        ArrayScope<byte> copy = scope;
        ArrayScope<byte> otherCopy = copy;
        scope.Dispose();

        AssertEnded(scope);
        AssertEnded(copy);
        AssertEnded(otherCopy);
        Assert.Equal(100, copy.Length);
    }

    [Fact]
    public void AScopeStaysValidWhileOtherCodeOnItsThreadAbandonsHundredsOfScopes()
    {
        bool valid = false;
        PoolStatistics before = default;
        PoolStatistics after = default;

        // A thread of its own: a correct component holds its scope while other code abandons 256 (no using), then uses it.
        TestThreads.RunOnNewThread(() =>
        {
            using ArrayScope<byte> mine = _pool.RentScoped(100);
            for (int i = 0; i < 256; i++)
            {
                #pragma warning disable NP0004 // The abandoned scopes are what the test is about.
                _ = _pool.RentScoped(100);
                #pragma warning restore NP0004
            }

            mine.Span.Fill(7);
            valid = mine.IsActive && mine.Span[99] == 7;
            before = _pool.GetStatistics();
        });

        after = _pool.GetStatistics();
        Assert.True(valid);
        Assert.Equal(before.Outstanding - 1, after.Outstanding);
    }

    [Fact]
    public void EveryLevelOfARecursionTenThousandDeepKeepsItsScope()
    {
        int broken = -1;
        Exception? failure = null;

        // A stack of its own, large enough for ten thousand frames that each hold a scope.
        var thread = new Thread(
            () =>
            {
                try
                {
                    broken = Recurse(10_000);
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
        Assert.Equal(0, _pool.GetStatistics().Outstanding);
    }

    /// <summary>One scope per level; after the deeper levels return, this level's scope must still be usable.</summary>
    private int Recurse(int depth)
    {
        if (depth == 0)
        {
            return 0;
        }

        using ArrayScope<byte> scope = _pool.RentScoped(16);
        scope.Span[0] = (byte)depth;
        int broken = Recurse(depth - 1);
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

    private static void AssertEnded(ArrayScope<byte> scope)
    {
        Assert.False(scope.IsActive);
        Throws<ObjectDisposedException>(scope, static s => _ = s.Span.Length);
        Throws<ObjectDisposedException>(scope, static s => _ = s.Array);
    }

    private static void Throws<TException>(ArrayScope<byte> scope, ScopeAction action) where TException : Exception
    {
        try
        {
            action(scope);
        }
        catch (TException)
        {
            return;
        }

        Assert.Fail($"Expected {typeof(TException).Name}.");
    }
}
