namespace NativePool.Tests;

/// <summary>
/// How the lease and scope tests prove "returned once": the returned array goes to the next renter, a stale dispose
/// runs, and the pool must then hold nothing and hand the next renter a new array.
/// </summary>
internal static class ReturnedOnce
{
    /// <summary>Rents <paramref name="length"/> and asserts the pool handed back <paramref name="array"/>, the one returned last.</summary>
    /// <returns>The array, now the next renter's.</returns>
    public static T[] NextRenterGets<T>(StripedArrayPool<T> pool, T[] array, int length)
    {
        T[] next = pool.Rent(length);
        Assert.Same(array, next);
        return next;
    }

    /// <summary>Asserts that a stale dispose returned nothing: the pool holds no array and the next rent is a new one.</summary>
    public static void StaleDisposeReturnedNothing<T>(StripedArrayPool<T> pool, T[] heldByNextRenter, int length)
    {
        Assert.Equal(0, pool.GetStatistics().Pooled);
        Assert.NotSame(heldByNextRenter, pool.Rent(length));
    }
}
