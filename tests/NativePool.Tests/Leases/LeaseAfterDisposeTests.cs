using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Leases;

/// <summary>
/// Every lease type ends the same way: inactive on every copy, every item accessor throws the one lease
/// <see cref="ObjectDisposedException"/>, and a second dispose neither throws nor returns the item twice (the next two
/// rents would otherwise get the same item).
/// </summary>
public sealed unsafe class LeaseAfterDisposeTests
{
    public static TheoryData<string> LeaseTypes { get; } = new()
    {
        nameof(ArrayLease<int>),
        nameof(ArrayScope<int>),
        nameof(ObjectLease<object>),
        nameof(MemoryLease<int>),
        nameof(NativeBlockLease),
        nameof(NativeStructLease<int>),
    };

    [Theory]
    [MemberData(nameof(LeaseTypes))]
    public void ADisposedLeaseIsInactiveThrowsTheLeaseExceptionAndADisposeAgainReturnsNothing(string leaseType)
    {
        Ended ended = End(leaseType);

        Assert.True(ended.ActiveWhileLeased);
        Assert.False(ended.ActiveAfterDispose);
        Assert.False(ended.CopyActiveAfterDispose);
        Assert.NotEmpty(ended.AccessorErrors);
        Exception expected = Record.Exception(ThrowHelper.ThrowLeaseEnded)!;
        Assert.All(ended.AccessorErrors, error =>
        {
            ObjectDisposedException disposed = Assert.IsType<ObjectDisposedException>(error);
            Assert.Equal(expected.Message, disposed.Message);
        });
        Assert.Null(ended.SecondDisposeError);
        Assert.True(ended.NextTwoRentsDiffer);
    }

    private static Ended End(string leaseType) => leaseType switch
    {
        nameof(ArrayLease<int>) => EndArrayLease(),
        nameof(ArrayScope<int>) => EndArrayScope(),
        nameof(ObjectLease<object>) => EndObjectLease(),
        nameof(MemoryLease<int>) => EndMemoryLease(),
        nameof(NativeBlockLease) => EndNativeBlockLease(),
        nameof(NativeStructLease<int>) => EndNativeStructLease(),
        _ => throw new ArgumentOutOfRangeException(nameof(leaseType), leaseType, "Not a lease type."),
    };

    /// <summary>Disposes <paramref name="lease"/> twice, then reads every accessor and whether the next two rents differ.</summary>
    private static Ended EndTwice<TLease>(TLease lease, Func<TLease, bool> isActive, Func<TLease, Func<object?>[]> accessors, Func<bool> nextTwoRentsDiffer)
        where TLease : struct, IDisposable
    {
        TLease copy = lease;
        bool active = isActive(lease);
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors = accessors(lease).Select(accessor => Record.Exception(accessor)).ToArray();
        return new Ended(active, isActive(lease), isActive(copy), errors, second, nextTwoRentsDiffer());
    }

    private static Ended EndArrayLease()
    {
        StripedArrayPool<int> pool = StripedArrayPool<int>.Create();
        return EndTwice(
            pool.RentLease(16),
            static lease => lease.IsActive,
            static lease => [() => lease.Array, () => lease.Span.Length, () => lease.Memory],
            () => !ReferenceEquals(pool.Rent(16), pool.Rent(16)));
    }

    private static Ended EndArrayScope()
    {
        // Guarded: only a guarded pool's scopes check their copies at run time (copies are compile-time errors, NP0012).
        StripedArrayPool<int> pool = StripedArrayPool<int>.Create(new StripedArrayPoolOptions { Guarded = true });
        ArrayScope<int> scope = pool.RentScoped(16);
#pragma warning disable NP0012
        ArrayScope<int> copy = scope;
#pragma warning restore NP0012
        bool active = scope.IsActive;
        scope.Dispose();
        Exception? second = null;
        try
        {
            scope.Dispose();
        }
        catch (Exception exception)
        {
            second = exception;
        }

        // A ref struct cannot be captured by a lambda: each accessor is caught here.
        var errors = new List<Exception?> { null, null };
        try
        {
            #pragma warning disable NP0002 // The use after dispose is the misuse under test.
            _ = scope.Array;
            #pragma warning restore NP0002
        }
        catch (Exception exception)
        {
            errors[0] = exception;
        }

        try
        {
            #pragma warning disable NP0002 // The use after dispose is the misuse under test.
            _ = scope.Span.Length;
            #pragma warning restore NP0002
        }
        catch (Exception exception)
        {
            errors[1] = exception;
        }

        int[] first = pool.Rent(16);
        int[] next = pool.Rent(16);
        return new Ended(active, scope.IsActive, copy.IsActive, errors, second, !ReferenceEquals(first, next));
    }

    private static Ended EndObjectLease()
    {
        var pool = new StripedObjectPool<object>(() => new object(), cleanup: null, new StripedObjectPoolOptions());
        return EndTwice(
            pool.RentLease(),
            static lease => lease.IsActive,
            static lease => [() => lease.Value],
            () => !ReferenceEquals(pool.Get(), pool.Get()));
    }

    private static Ended EndMemoryLease()
    {
        using StripedMemoryPool<int> pool = StripedMemoryPool<int>.Create();
        return EndTwice(
            pool.RentLease(16),
            static lease => lease.IsActive,
            static lease => [() => lease.Memory, () => lease.Span.Length],
            () =>
            {
                using MemoryLease<int> first = pool.RentLease(16);
                using MemoryLease<int> next = pool.RentLease(16);
                return !Unsafe.AreSame(ref MemoryMarshal.GetReference(first.Span), ref MemoryMarshal.GetReference(next.Span));
            });
    }

    private static Ended EndNativeBlockLease()
    {
        using NativeBlockPool pool = NativeBlockPool.Create();
        return EndTwice(
            pool.Rent(64),
            static lease => lease.IsActive,
            static lease =>
            [
                () => lease.Capacity,
                () => (nint)lease.Pointer,
                () => lease.Span.Length,
                () => lease.Memory,
                () => lease.AsSpan<int>().Length,
                () => lease.AsRef<int>(),
                () => (nint)lease.AsPointer<int>(),
            ],
            () =>
            {
                using NativeBlockLease first = pool.Rent(64);
                using NativeBlockLease next = pool.Rent(64);
                return first.Pointer != next.Pointer;
            });
    }

    private static Ended EndNativeStructLease()
    {
        using NativeStructPool<long> pool = NativeStructPool<long>.Create();
        return EndTwice(
            pool.Rent(4),
            static lease => lease.IsActive,
            static lease => [() => lease.Value, () => (nint)lease.Pointer, () => lease.Span.Length, () => lease.Memory],
            () =>
            {
                using NativeStructLease<long> first = pool.Rent(4);
                using NativeStructLease<long> next = pool.Rent(4);
                return first.Pointer != next.Pointer;
            });
    }

    /// <summary>What a lease looked like once disposed.</summary>
    private sealed record Ended(
        bool ActiveWhileLeased,
        bool ActiveAfterDispose,
        bool CopyActiveAfterDispose,
        IReadOnlyList<Exception?> AccessorErrors,
        Exception? SecondDisposeError,
        bool NextTwoRentsDiffer);
}
