using System.Numerics;
using NativePool.Tests.ArrayPool;

namespace NativePool.Tests.Parity;

/// <summary>
/// The ideas of the runtime's own <c>ArrayPool&lt;T&gt;</c> unit tests, run against the BCL's pools (the control) and
/// against ours. Each test's upstream name is in docs/parity.md, with the verdict.
/// </summary>
/// <remarks>
/// Where ours differs on purpose, <see cref="IsStriped"/> selects the documented behaviour and the test asserts it.
/// </remarks>
public abstract class ArrayPoolParityTests
{
    /// <summary>The four byte pools the upstream theories run on: default, 1 MiB × 50, 1 MiB × 1, Shared.</summary>
    public static TheoryData<int> BytePools => new() { 0, 1, 2, 3 };

    /// <summary>True for our pools.</summary>
    protected abstract bool IsStriped { get; }

    [Fact]
    public void SharedIsNeverNull() => Assert.NotNull(SharedPool<byte>());

    [Fact]
    public void SharedIsOneInstancePerElementType()
    {
        ArrayPool<byte> first = SharedPool<byte>();
        Assert.Same(first, SharedPool<byte>());
        Assert.NotSame(first, SharedPool<char>());
    }

    [Fact]
    public void CreateMakesADistinctPoolEachTime() => Assert.NotSame(Create<byte>(), Create<byte>());

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void CreatingAPoolWithANonPositiveArrayCountThrows(int count) =>
        Assert.Throws<ArgumentOutOfRangeException>("maxArraysPerBucket", () => Create<byte>(16, count));

    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void CreatingAPoolWithANonPositiveMaximumLengthThrows(int length) =>
        Assert.Throws<ArgumentOutOfRangeException>("maxArrayLength", () => Create<byte>(length, 1));

    [Theory]
    [InlineData(1)]
    [InlineData(16)]
    [InlineData(0x4000_0000)]
    [InlineData(int.MaxValue)]
    public void CreatingAPoolWithAnyPositiveMaximumLengthWorks(int length)
    {
        ArrayPool<byte> pool = Create<byte>(length, 1);
        Assert.NotNull(pool.Rent(1));
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void RentingANegativeLengthThrows(int pool) =>
        Assert.Throws<ArgumentOutOfRangeException>("minimumLength", () => BytePool(pool).Rent(-1));

    [Fact]
    public void RentingAGiganticArraySucceedsOrRunsOutOfMemory()
    {
        try
        {
            #pragma warning disable NP0003 // A gigantic array is not given to the shared pool to keep.
            byte[] array = SharedPool<byte>().Rent(0x7000_0000);
            #pragma warning restore NP0003
            Assert.True(array.Length >= 0x7000_0000);
        }
        catch (OutOfMemoryException)
        {
        }
    }

    [Theory]
    [InlineData(0x4000_0000 - 1, true)]
    [InlineData(0x4000_0000, true)]
    [InlineData(0x4000_0000 + 1, false)]
    [InlineData(0x7FFF_FFC7, false)]
    public void AGiganticArrayFromSharedIsPooledUpToTheLargestBucket(int length, bool expectPooled)
    {
        // Upstream runs this in a child process only to set a runtime knob its own pool reads; the behaviour under test
        // (up to 2^30 the shared pool keeps what comes back, past it not) needs none, so it runs here, on both pools.
        ArrayPool<byte> pool = SharedPool<byte>();
        byte[] array;
        try
        {
            array = pool.Rent(length);
        }
        catch (OutOfMemoryException)
        {
            return;
        }

        Assert.InRange(array.Length, length, int.MaxValue);
        pool.Return(array);
        #pragma warning disable NP0003 // The array rented back is dropped, as upstream's child process drops it.
        Assert.Equal(expectPooled, ReferenceEquals(array, pool.Rent(length)));
        #pragma warning restore NP0003
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void RentingZeroGivesTheEmptySingletonEvenAfterItIsReturned(int index)
    {
        ArrayPool<byte> pool = BytePool(index);
        byte[] zero0 = pool.Rent(0);
        byte[] zero1 = pool.Rent(0);
        byte[] zero2 = pool.Rent(0);
        byte[] one = pool.Rent(1);
        Assert.Same(zero0, zero1);
        Assert.Same(zero1, zero2);
        Assert.NotSame(zero2, one);

        pool.Return(zero0);
        pool.Return(zero1);
        pool.Return(zero2);
        pool.Return(one);
        Assert.Same(zero0, pool.Rent(0));
    }

    [Fact]
    public void RentingTwiceGivesTwoArrays()
    {
        ArrayPool<byte> pool = Create<byte>(16, 2);
        Assert.NotSame(pool.Rent(100), pool.Rent(100));
    }

    [Fact]
    public void RentingMoreArraysThanTheBucketHoldsStillWorks()
    {
        ArrayPool<byte> pool = Create<byte>(16, 1);
        Assert.NotNull(pool.Rent(100));
        Assert.NotNull(pool.Rent(100));
    }

    [Fact]
    public void RentCanGiveALongerArrayThanAskedFor()
    {
        ArrayPool<byte> pool = Create<byte>(32, 1);
        Assert.Equal(32, pool.Rent(27).Length);
    }

    [Fact]
    public void RentingLongerThanTheMaximumStillWorks() => Assert.True(Create<byte>(100, 1).Rent(200).Length >= 200);

    [Theory]
    [MemberData(nameof(BytePools))]
    public void ReturningNullThrows(int pool) =>
        Assert.Throws<ArgumentNullException>("array", () => BytePool(pool).Return(null!));

    [Theory]
    [MemberData(nameof(BytePools))]
    public void ReturnWithoutClearingLeavesTheContents(int index)
    {
        ArrayPool<byte> pool = BytePool(index);
        byte[] array = pool.Rent(4);
        Fill(array);
        pool.Return(array, clearArray: false);
        #pragma warning disable NP0002 // The test reads what the return left in the array.
        for (int i = 0; i < array.Length; i++)
        {
            Assert.Equal((byte)i, array[i]);
        }
        #pragma warning restore NP0002
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void ReturnWithClearingZeroesTheContents(int index)
    {
        ArrayPool<byte> pool = BytePool(index);
        byte[] array = pool.Rent(4);
        Fill(array);
        pool.Return(array, clearArray: true);
        #pragma warning disable NP0002 // The test reads what the return left in the array.
        Assert.All(array, b => Assert.Equal(0, b));
        #pragma warning restore NP0002
    }

    [Fact]
    public void ReturnWithoutClearingAReferenceArrayKeepsTheReferences()
    {
        // Both pools clear reference arrays only when asked (ours by default too: ClearReferencesOnReturn is opt-in).
        ArrayPool<string> pool = Create<string>();
        string[] array = pool.Rent(2);
        array[0] = "foo";
        array[1] = "bar";
        pool.Return(array, clearArray: false);
        #pragma warning disable NP0002 // The test reads what the return left in the array.
        Assert.Equal("foo", array[0]);
        Assert.Equal("bar", array[1]);
        #pragma warning restore NP0002
    }

    [Fact]
    public void ReturnWithClearingAReferenceArrayNullsTheReferences()
    {
        ArrayPool<string> pool = Create<string>();
        string[] array = pool.Rent(2);
        array[0] = "foo";
        array[1] = "bar";
        pool.Return(array, clearArray: true);
        #pragma warning disable NP0002 // The test reads what the return left in the array.
        Assert.Null(array[0]);
        Assert.Null(array[1]);
        #pragma warning restore NP0002
    }

    [Fact]
    public void ReturnWithClearingAStructWithAReferenceResetsIt()
    {
        ArrayPool<TaggedValue> pool = Create<TaggedValue>();
        TaggedValue[] array = pool.Rent(2);
        array[0] = new TaggedValue("foo", 1);
        array[1] = new TaggedValue("bar", 2);
        pool.Return(array, clearArray: true);
        #pragma warning disable NP0002 // The test reads what the return left in the array.
        Assert.Equal(default, array[0]);
        Assert.Equal(default, array[1]);
        #pragma warning restore NP0002
    }

    [Fact]
    public void EveryArrayOfAFullBucketPlusAnAllocatedOneCanBeReturned()
    {
        ArrayPool<byte> pool = Create<byte>(16, 1);
        byte[] pooled = pool.Rent(16);
        byte[] allocated = pool.Rent(16);
        pool.Return(pooled);
        pool.Return(allocated);

        byte[] first = pool.Rent(16);
        byte[] second = pool.Rent(16);
        if (IsStriped)
        {
            // Ours keeps both on this thread: the last return in its slot, the one before in its magazine.
            Assert.Same(allocated, first);
            Assert.Same(pooled, second);
        }
        else
        {
            // The BCL's bucket of one keeps the first return and drops the second.
            Assert.Same(pooled, first);
            Assert.NotSame(allocated, second);
            Assert.NotSame(pooled, second);
        }

        pool.Return(first);
        pool.Return(second);
    }

    [Fact]
    public void AMaximumBelowSixteenRoundsUpToSixteen()
    {
        ArrayPool<byte> pool = Create<byte>(8, 1);
        Assert.Equal(16, pool.Rent(8).Length);
    }

    [Fact]
    public void ReturningAnArrayLongerThanTheMaximumDoesNotThrow()
    {
        ArrayPool<byte> pool = Create<byte>(16, 1);
        byte[] longer = pool.Rent(32);
        Assert.Equal(32, longer.Length);
        pool.Return(longer);

        // Allocated at the exact length and dropped on return: the next rent of that length allocates again.
        byte[] next = pool.Rent(32);
        Assert.Equal(32, next.Length);
        Assert.NotSame(longer, next);
        pool.Return(next);
    }

    [Fact]
    public void RentingPastAFullBucketAllocates()
    {
        ArrayPool<byte> pool = Create<byte>(16, 1);
        Assert.NotNull(pool.Rent(16));
        Assert.NotNull(pool.Rent(16));
    }

    [Fact]
    public void RentAfterReturnGivesBackTheSameArray()
    {
        ArrayPool<byte> pool = Create<byte>(16, 1);
        byte[] array = pool.Rent(16);
        pool.Return(array);
        Assert.Same(array, pool.Rent(16));
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void EveryLengthGetsTheNextPowerOfTwoFromSixteen(int index)
    {
        ArrayPool<byte> pool = BytePool(index);
        for (int length = 1; length < 10_000; length++)
        {
            byte[] array = pool.Rent(length);
            Assert.Equal(length <= 16 ? 16 : (int)BitOperations.RoundUpToPowerOf2((uint)length), array.Length);
            pool.Return(array);
        }
    }

    [Theory]
    [InlineData(1, 16)]
    [InlineData(15, 16)]
    [InlineData(16, 16)]
    [InlineData(1023, 1024)]
    [InlineData(1024, 1024)]
    [InlineData(4096, 4096)]
    [InlineData(1024 * 1024, 1024 * 1024)]
    [InlineData(1024 * 1024 + 1, 1024 * 1024 * 2)]
    [InlineData(1024 * 1024 * 2, 1024 * 1024 * 2)]
    public void SpecificLengthsGiveTheExpectedLengths(int requested, int expected)
    {
        int maximum = (int)BitOperations.RoundUpToPowerOf2((uint)requested);
        CheckTwoRents(Create<byte>(maximum, 1), requested, expected);
        CheckTwoRents(SharedPool<byte>(), requested, expected);
        CheckTwoRents(Create<char>(maximum, 1), requested, expected);
        CheckTwoRents(SharedPool<char>(), requested, expected);
        CheckTwoRents(Create<string>(maximum, 1), requested, expected);
        CheckTwoRents(SharedPool<string>(), requested, expected);
    }

    [Theory]
    [InlineData(15, 16)]
    [InlineData(31, 32)]
    public void AnExhaustedBucketIsFollowedByTheNextOneInTheBclPoolOnly(int requested, int ownLength)
    {
        ArrayPool<byte> pool = Create<byte>(64, 2);
        int[] lengths = Enumerable.Range(0, 5).Select(_ => pool.Rent(requested).Length).ToArray();
        if (IsStriped)
        {
            // Documented difference: a rent is always served from its own size class (allocating on a miss).
            Assert.All(lengths, length => Assert.Equal(ownLength, length));
        }
        else
        {
            Assert.Equal(new[] { ownLength, ownLength, ownLength * 2, ownLength * 2, ownLength }, lengths);
        }
    }

    [Fact]
    public void AnExhaustedLargestBucketKeepsGivingItsOwnLength()
    {
        ArrayPool<byte> pool = Create<byte>(64, 2);
        Assert.Equal(64, pool.Rent(63).Length);
        Assert.Equal(64, pool.Rent(63).Length);
        Assert.Equal(64, pool.Rent(63).Length);
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void ReturningAnArrayOfAForeignLengthThrows(int pool) =>
        Assert.Throws<ArgumentException>("array", () => BytePool(pool).Return(new byte[1]));

    [Theory]
    [MemberData(nameof(BytePools))]
    public void AHundredRentsOfOneLengthGiveAHundredArrays(int index)
    {
        ArrayPool<byte> pool = BytePool(index);
        foreach (int length in new[] { 1, 16, 32, 64, 127, 4096, 4097 })
        {
            for (int round = 0; round < 2; round++)
            {
                var arrays = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
                for (int i = 0; i < 100; i++)
                {
                    arrays.Add(pool.Rent(length));
                }

                Assert.Equal(100, arrays.Count);
                foreach (byte[] array in arrays)
                {
                    pool.Return(array);
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(BytePools))]
    public void ThePoolCanBeUsedInParallel(int index)
    {
        // Upstream UsePoolInParallel: 250 000 iterations over all four pools, Shared included. Shared stays although other
        // tests use it at the same time, because its thread-static fast path is code of its own. It cannot disturb them:
        // the body returns every array it rents, unwritten, as any concurrent user of a process-wide pool does, and a
        // test that expects an array back from Shared rents it right after returning it on its own thread, so it comes
        // from that thread's tier, which no other thread touches.
        ArrayPool<byte> pool = BytePool(index);
        int[] lengths = [16, 32, 64, 128];
        Parallel.For(0, 250_000, _ =>
        {
            foreach (int length in lengths)
            {
                byte[] array = pool.Rent(length);
                Assert.InRange(array.Length, length, int.MaxValue);
                pool.Return(array);
            }
        });
    }

    [Fact]
    public void FreshReferenceArraysFromADefaultPoolAreCleared() => AssertFreshArraysAreDefault<string>();

    [Fact]
    public void FreshByteArraysFromADefaultPoolAreCleared() => AssertFreshArraysAreDefault<byte>();

    [Fact]
    public void FreshDateTimeArraysFromADefaultPoolAreCleared() => AssertFreshArraysAreDefault<DateTime>();

    /// <summary>The process-wide pool.</summary>
    protected abstract ArrayPool<T> SharedPool<T>();

    /// <summary>A new pool with the default shape.</summary>
    protected abstract ArrayPool<T> Create<T>();

    /// <summary>A new pool shaped like the BCL's <c>ArrayPool&lt;T&gt;.Create(int, int)</c>.</summary>
    protected abstract ArrayPool<T> Create<T>(int maxArrayLength, int maxArraysPerBucket);

    private ArrayPool<byte> BytePool(int index) => index switch
    {
        0 => Create<byte>(),
        1 => Create<byte>(1024 * 1024, 50),
        2 => Create<byte>(1024 * 1024, 1),
        _ => SharedPool<byte>(),
    };

    private static void Fill(byte[] array)
    {
        for (int i = 0; i < array.Length; i++)
        {
            array[i] = (byte)i;
        }
    }

    private static void CheckTwoRents<T>(ArrayPool<T> pool, int requested, int expected)
    {
        T[] first = pool.Rent(requested);
        T[] second = pool.Rent(requested);
        Assert.Equal(expected, first.Length);
        Assert.Equal(expected, second.Length);
        Assert.NotSame(first, second);
        pool.Return(second);
        pool.Return(first);
    }

    private void AssertFreshArraysAreDefault<T>()
    {
        ArrayPool<T> pool = Create<T>();
        for (int length = 1; length <= 1000; length++)
        {
            #pragma warning disable NP0003 // Each rent must be a fresh array, so none is returned.
            T[] array = pool.Rent(length);
            #pragma warning restore NP0003
            Assert.All(array, item => Assert.Equal(default, item));
        }
    }
}
