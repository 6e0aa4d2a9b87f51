using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// The <see cref="ArrayPool{T}"/> contract (DESIGN §2.2), run against every configuration of
/// <see cref="StripedArrayPool{T}"/> and against <see cref="ArrayPool{T}.Shared"/> as the reference: each concrete
/// subclass supplies one pool and one element type (see <c>ArrayPoolContractConfigurations.cs</c>).
/// </summary>
/// <remarks>
/// xunit makes a new instance of the test class for every test, so configurations that create their pool get a fresh
/// pool per test. The shared pools are shared with every other test running at the same time, so the tests here only
/// rely on what holds whatever other threads do: a thread's rent right after its own return, distinctness, lengths.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
public abstract class ArrayPoolContractTests<T>
{
    /// <summary>Lengths that are not a size class of any pool under test (all below every configuration's maximum).</summary>
    public static TheoryData<int> NonClassLengths => new() { 1, 15, 17, 100, 1000, 4095 };

    /// <summary>Lengths every configuration keeps (at most the smallest configured maximum, 4096).</summary>
    public static TheoryData<int> PooledLengths => new() { 1, 15, 16, 17, 100, 1000, 4096 };

    /// <summary>The pool under test.</summary>
    protected abstract ArrayPool<T> Pool { get; }

    /// <summary>The longest array the pool keeps; longer requests are allocated exactly and dropped on return.</summary>
    protected abstract int MaximumPooledLength { get; }

    /// <summary>Whether the pool promises the exact size class (power of two from 16) rather than "at least".</summary>
    protected virtual bool RentsExactSizeClasses => true;

    /// <summary>Whether <c>Return(array, clearArray: false)</c> clears the array anyway.</summary>
    protected abstract bool ClearsWithoutClearArray { get; }

    [Fact]
    public void RentingZeroGivesTheEmptySingleton()
    {
        Assert.Same(Array.Empty<T>(), Pool.Rent(0));
    }

    [Fact]
    public void ReturningTheEmptySingletonIsAllowed()
    {
        Pool.Return(Array.Empty<T>());
        Pool.Return(Array.Empty<T>(), clearArray: true);
        Assert.Same(Array.Empty<T>(), Pool.Rent(0));
        AssertPoolStillWorks();
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(-16)]
    [InlineData(int.MinValue)]
    public void RentingANegativeLengthThrowsArgumentOutOfRange(int length)
    {
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => Pool.Rent(length));
        Assert.Equal("minimumLength", exception.ParamName);
        AssertPoolStillWorks();
    }

    [Fact]
    public void ReturningNullThrowsArgumentNull()
    {
        ArgumentNullException exception = Assert.Throws<ArgumentNullException>(() => Pool.Return(null!));
        Assert.Equal("array", exception.ParamName);
        Assert.Throws<ArgumentNullException>(() => Pool.Return(null!, clearArray: true));
        AssertPoolStillWorks();
    }

    [Theory]
    [MemberData(nameof(NonClassLengths))]
    public void ReturningAForeignArrayOfANonClassLengthThrowsArgument(int length)
    {
        var foreign = new T[length];
        ArgumentException exception = Assert.Throws<ArgumentException>(() => Pool.Return(foreign));
        Assert.Equal("array", exception.ParamName);
        Assert.Throws<ArgumentException>(() => Pool.Return(foreign, clearArray: true));

        // Not kept: no rent of any length near it hands the foreign array out.
        T[][] rented = [Pool.Rent(length), Pool.Rent(length), Pool.Rent(Math.Max(1, length - 1)), Pool.Rent(length + 1)];
        Assert.DoesNotContain(rented, array => ReferenceEquals(array, foreign));
        foreach (T[] array in rented)
        {
            Pool.Return(array);
        }

        AssertPoolStillWorks();
    }

    [Fact]
    public void LengthsFromOneTo9999GetTheNextSizeClass()
    {
        for (int length = 1; length <= 9_999; length++)
        {
            T[] array = Pool.Rent(length);
            AssertRentedLength(length, array);
            Pool.Return(array);
        }
    }

    [Theory]
    [MemberData(nameof(PooledLengths))]
    public void RentingAfterReturningGivesBackTheSameArray(int length)
    {
        T[] first = Pool.Rent(length);
        Pool.Return(first);
        T[] second = Pool.Rent(length);
        Assert.Same(first, second);
        Pool.Return(second);
    }

    [Fact]
    public void EveryLengthUpToTwoToTheTwentiethRentsAndReturns()
    {
        for (int shift = 0; shift <= 20; shift++)
        {
            foreach (int length in new[] { (1 << shift) - 1, 1 << shift, (1 << shift) + 1 })
            {
                if (length is 0 or > 1 << 20)
                {
                    continue;
                }

                T[] array = Pool.Rent(length);
                AssertRentedLength(length, array);
                array[0] = TestElements<T>.Make(1);
                array[length - 1] = TestElements<T>.Make(2);
                Pool.Return(array);

                #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
                Pool.Return(RentAgainAndCheckKept(length, array));
                #pragma warning restore NP0002
            }
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(4096)]
    public void HundredRentsOfOneSizeAreAllDistinct(int length)
    {
        var rented = new List<T[]>();
        var distinct = new HashSet<T[]>(ReferenceEqualityComparer.Instance);
        for (int i = 0; i < 100; i++)
        {
            T[] array = Pool.Rent(length);
            AssertRentedLength(length, array);
            rented.Add(array);
            Assert.True(distinct.Add(array), $"Rent #{i} of {length} handed out an array that was already rented.");
        }

        foreach (T[] array in rented)
        {
            Pool.Return(array);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(4096)]
    public void ReturningWithClearArrayClearsTheArray(int length)
    {
        T[] array = Pool.Rent(length);
        TestElements<T>.Fill(array);
        Pool.Return(array, clearArray: true);

        // The caller still holds the reference: the pool cleared the whole array, not just the requested length.
        #pragma warning disable NP0002 // The test reads what the return left in the caller's reference.
        Assert.True(TestElements<T>.IsCleared(array));
        #pragma warning restore NP0002
        T[] again = Pool.Rent(length);
        Assert.Same(array, again);
        Assert.True(TestElements<T>.IsCleared(again));
        Pool.Return(again);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(4096)]
    public void ReturningWithoutClearArrayKeepsTheContentsUnlessThePoolAlwaysClears(int length)
    {
        T[] array = Pool.Rent(length);
        TestElements<T>.Fill(array);
        Pool.Return(array, clearArray: false);

        T[] again = Pool.Rent(length);
        Assert.Same(array, again);
        if (ClearsWithoutClearArray)
        {
            Assert.True(TestElements<T>.IsCleared(again), "The pool should have cleared the array when it kept it.");
        }
        else
        {
            Assert.True(TestElements<T>.HoldsFilledValues(again), "The pool should have kept the array's contents.");
        }

        Pool.Return(again);
    }

    [Theory]
    [InlineData(16)]
    [InlineData(4096)]
    public void AnArrayRentedHereCanBeReturnedOnAnotherThread(int length)
    {
        T[] array = Pool.Rent(length);
        T[]? rentedThereAfterReturn = null;
        TestThreads.RunOnNewThread(() =>
        {
            Pool.Return(array);
            rentedThereAfterReturn = Pool.Rent(length);
            Pool.Return(rentedThereAfterReturn);
        });

        // The other thread's rent right after its return got the array back.
        Assert.Same(array, rentedThereAfterReturn);
        AssertPoolStillWorks();
    }

    [Theory]
    [InlineData(16)]
    [InlineData(4096)]
    public void AnArrayRentedOnAnotherThreadCanBeReturnedHere(int length)
    {
        T[]? array = null;
        TestThreads.RunOnNewThread(() => array = Pool.Rent(length));
        Assert.NotNull(array);
        AssertRentedLength(length, array);

        Pool.Return(array);
        T[] again = Pool.Rent(length);
        Assert.Same(array, again);
        Pool.Return(again);
    }

    [HugeFact]
    [Trait("Category", "Huge")]
    public void RentingAGibibyteWorks()
    {
        int length = (1 << 30) / Unsafe.SizeOf<T>();
        T[] array = Pool.Rent(length);
        AssertRentedLength(length, array);
        array[length - 1] = TestElements<T>.Make(3);
        Pool.Return(array);

        // Rented again and not returned, so no pool keeps a gibibyte after the test.
        #pragma warning disable NP0002 // The helper compares the returned array with what the pool hands out next.
        RentAgainAndCheckKept(length, array);
        #pragma warning restore NP0002
    }

    /// <summary>
    /// Rents <paramref name="length"/> again right after <paramref name="array"/> was returned: the same array when the
    /// pool keeps that length; a new one past its maximum (allocated exactly and dropped, so never handed out again).
    /// </summary>
    /// <returns>The array rented again.</returns>
    protected T[] RentAgainAndCheckKept(int length, T[] array)
    {
        T[] again = Pool.Rent(length);
        if (length <= MaximumPooledLength)
        {
            Assert.Same(array, again);
        }
        else
        {
            Assert.NotSame(array, again);
        }

        return again;
    }

    /// <summary>Checks the length of an array rented for <paramref name="requested"/> elements.</summary>
    protected void AssertRentedLength(int requested, T[] array)
    {
        Assert.NotNull(array);
        if (!RentsExactSizeClasses)
        {
            Assert.True(array.Length >= requested, $"Rent({requested}) gave {array.Length} elements.");
            return;
        }

        int expected = requested > MaximumPooledLength
            ? requested
            : Math.Max(16, (int)BitOperations.RoundUpToPowerOf2((uint)requested));
        Assert.Equal(expected, array.Length);
    }

    /// <summary>Rents and returns a few sizes and checks the answers: the pool survived whatever the test did.</summary>
    protected void AssertPoolStillWorks()
    {
        foreach (int length in new[] { 1, 16, 100, 4096 })
        {
            T[] a = Pool.Rent(length);
            T[] b = Pool.Rent(length);
            Assert.NotSame(a, b);
            AssertRentedLength(length, a);
            AssertRentedLength(length, b);
            Pool.Return(b);
            Pool.Return(a);
            T[] again = Pool.Rent(length);
            Assert.Same(a, again);
            Pool.Return(again);
        }
    }
}
