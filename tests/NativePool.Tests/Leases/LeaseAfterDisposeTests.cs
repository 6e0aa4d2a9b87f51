using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Leases;

/// <summary>
/// Every lease type ends the same way: inactive on every copy, every item accessor throws the one lease
/// <see cref="ObjectDisposedException"/>, and a second dispose neither throws nor returns the item twice.
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
    public void ADisposedLeaseIsInactiveEverywhereAndThrowsTheLeaseExceptionFromEveryAccessor(string leaseType)
    {
        Ended ended = End(leaseType);

        Assert.True(ended.ActiveWhileLeased);
        Assert.False(ended.ActiveAfterDispose);
        Assert.False(ended.CopyActiveAfterDispose);
        Assert.NotEmpty(ended.AccessorErrors);
        Exception expected = Record.Exception(LeaseThrowHelper.ThrowLeaseEnded)!;
        Assert.All(ended.AccessorErrors, error =>
        {
            ObjectDisposedException disposed = Assert.IsType<ObjectDisposedException>(error);
            Assert.Equal(expected.Message, disposed.Message);
        });
    }

    [Theory]
    [MemberData(nameof(LeaseTypes))]
    public void DisposingALeaseTwiceReturnsItsItemOnce(string leaseType)
    {
        Ended ended = End(leaseType);

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

    private static Ended EndArrayLease()
    {
        StripedArrayPool<int> pool = StripedArrayPool<int>.Create();
        ArrayLease<int> lease = pool.RentLease(16);
        ArrayLease<int> copy = lease;
        bool active = lease.IsActive;
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors =
        [
            Record.Exception(() => _ = lease.Array),
            Record.Exception(() => _ = lease.Span.Length),
            Record.Exception(() => _ = lease.Memory),
        ];

        int[] first = pool.Rent(16);
        int[] next = pool.Rent(16);
        return new Ended(active, lease.IsActive, copy.IsActive, errors, second, !ReferenceEquals(first, next));
    }

    private static Ended EndArrayScope()
    {
        StripedArrayPool<int> pool = StripedArrayPool<int>.Create();
        ArrayScope<int> scope = pool.RentScoped(16);
        ArrayScope<int> copy = scope;
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
            _ = scope.Array;
        }
        catch (Exception exception)
        {
            errors[0] = exception;
        }

        try
        {
            _ = scope.Span.Length;
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
        ObjectLease<object> lease = pool.RentScoped();
        ObjectLease<object> copy = lease;
        bool active = lease.IsActive;
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors = [Record.Exception(() => _ = lease.Value)];

        object first = pool.Get();
        object next = pool.Get();
        return new Ended(active, lease.IsActive, copy.IsActive, errors, second, !ReferenceEquals(first, next));
    }

    private static Ended EndMemoryLease()
    {
        using StripedMemoryPool<int> pool = StripedMemoryPool<int>.Create();
        MemoryLease<int> lease = pool.RentScoped(16);
        MemoryLease<int> copy = lease;
        bool active = lease.IsActive;
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors =
        [
            Record.Exception(() => _ = lease.Memory),
            Record.Exception(() => _ = lease.Span.Length),
        ];

        MemoryLease<int> first = pool.RentScoped(16);
        MemoryLease<int> next = pool.RentScoped(16);
        bool differ = !Unsafe.AreSame(ref MemoryMarshal.GetReference(first.Span), ref MemoryMarshal.GetReference(next.Span));
        return new Ended(active, lease.IsActive, copy.IsActive, errors, second, differ);
    }

    private static Ended EndNativeBlockLease()
    {
        using NativeBlockPool pool = NativeBlockPool.Create();
        NativeBlockLease lease = pool.Rent(64);
        NativeBlockLease copy = lease;
        bool active = lease.IsActive;
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors =
        [
            Record.Exception(() => _ = lease.Capacity),
            Record.Exception(() => _ = (nint)lease.Pointer),
            Record.Exception(() => _ = lease.Span.Length),
            Record.Exception(() => _ = lease.Memory),
            Record.Exception(() => _ = lease.AsSpan<int>().Length),
            Record.Exception(() => _ = lease.AsRef<int>()),
            Record.Exception(() => _ = (nint)lease.AsPointer<int>()),
        ];

        using NativeBlockLease first = pool.Rent(64);
        using NativeBlockLease next = pool.Rent(64);
        return new Ended(active, lease.IsActive, copy.IsActive, errors, second, first.Pointer != next.Pointer);
    }

    private static Ended EndNativeStructLease()
    {
        using NativeStructPool<long> pool = NativeStructPool<long>.Create();
        NativeStructLease<long> lease = pool.Rent(4);
        NativeStructLease<long> copy = lease;
        bool active = lease.IsActive;
        lease.Dispose();
        Exception? second = Record.Exception(lease.Dispose);
        Exception?[] errors =
        [
            Record.Exception(() => _ = lease.Value),
            Record.Exception(() => _ = (nint)lease.Pointer),
            Record.Exception(() => _ = lease.Span.Length),
            Record.Exception(() => _ = lease.Memory),
        ];

        using NativeStructLease<long> first = pool.Rent(4);
        using NativeStructLease<long> next = pool.Rent(4);
        return new Ended(active, lease.IsActive, copy.IsActive, errors, second, first.Pointer != next.Pointer);
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
