using System.Runtime.InteropServices;

namespace NativePool.Tests.Native;

/// <summary>
/// Every bad argument to every public member added for pinned and native memory: the documented exception, a useful
/// parameter name, and a pool that still works afterwards.
/// </summary>
public sealed class BadInputTests
{
    public static TheoryData<string, Type, string?, Action> Cases()
    {
        var data = new TheoryData<string, Type, string?, Action>();

        void Add<TException>(string name, string? paramName, Action action)
            where TException : Exception => data.Add(name, typeof(TException), paramName, action);

        // StripedMemoryPool<T>
        Add<ArgumentNullException>("StripedMemoryPool.Create(null)", "options", () => StripedMemoryPool<byte>.Create(null!));
        Add<ArgumentOutOfRangeException>("MaximumBufferLength 15", "MaximumBufferLength", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { MaximumBufferLength = 15 }));
        Add<ArgumentOutOfRangeException>("MaximumBufferLength 2^30+1", "MaximumBufferLength", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { MaximumBufferLength = (1 << 30) + 1 }));
        Add<ArgumentOutOfRangeException>("DefaultBufferLength -1", "DefaultBufferLength", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { DefaultBufferLength = -1 }));
        Add<ArgumentOutOfRangeException>("DefaultBufferLength above max", "DefaultBufferLength", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { MaximumBufferLength = 1024, DefaultBufferLength = 1025 }));
        Add<ArgumentOutOfRangeException>("ItemsPerStripe -1", "ItemsPerStripe", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { ItemsPerStripe = -1 }));
        Add<ArgumentOutOfRangeException>("ItemsPerStripe 65537", "ItemsPerStripe", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { ItemsPerStripe = 65_537 }));
        Add<ArgumentOutOfRangeException>("MaximumRetainedBytesPerSizeClass 0", "MaximumRetainedBytesPerSizeClass", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { MaximumRetainedBytesPerSizeClass = 0 }));
        Add<ArgumentOutOfRangeException>("StripeCount 3", "StripeCount", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 3 }));
        Add<ArgumentOutOfRangeException>("StripeCount 128", "StripeCount", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 128 }));
        Add<ArgumentOutOfRangeException>("TrimInterval 0", "TrimInterval", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { TrimInterval = TimeSpan.Zero }));
        Add<ArgumentOutOfRangeException>("TrimAge -1 s", "TrimAge", () => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { TrimAge = TimeSpan.FromSeconds(-1) }));
        Add<ArgumentOutOfRangeException>("MemoryPool.Rent(-2)", "minBufferSize", () => StripedMemoryPool<byte>.Shared.Rent(-2));
        Add<ArgumentOutOfRangeException>("MemoryPool.Rent(MaxBufferSize + 1)", "minBufferSize", () => StripedMemoryPool<byte>.Shared.Rent(StripedMemoryPool<byte>.Shared.MaxBufferSize + 1));
        Add<ArgumentOutOfRangeException>("MemoryPool.RentLease(-2)", "minBufferSize", () => StripedMemoryPool<byte>.Shared.RentLease(-2));
        Add<ArgumentOutOfRangeException>("Pin(-1)", "elementIndex", () =>
        {
            using IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(10);
            Manager(owner).Pin(-1);
        });
        Add<ArgumentOutOfRangeException>("Pin(length + 1)", "elementIndex", () =>
        {
            using IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(10);
            Manager(owner).Pin(11);
        });
        Add<ObjectDisposedException>("Memory after Dispose", null, () =>
        {
            IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(10);
            owner.Dispose();
            #pragma warning disable NP0002 // The misuse under test.
            _ = owner.Memory;
            #pragma warning restore NP0002
        });
        Add<ObjectDisposedException>("GetSpan after Dispose", null, () =>
        {
            IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(10);
            MemoryManager<byte> manager = Manager(owner);
            owner.Dispose();
            manager.GetSpan();
        });
        Add<ObjectDisposedException>("Rent after pool Dispose", null, () =>
        {
            var pool = StripedMemoryPool<byte>.Create();
            pool.Dispose();
            #pragma warning disable NP0004 // The rent throws: the misuse under test.
            pool.Rent(10);
            #pragma warning restore NP0004
        });
        Add<ObjectDisposedException>("default MemoryLease.Memory", null, () => _ = default(MemoryLease<byte>).Memory);
        Add<ObjectDisposedException>("default MemoryLease.Span", null, () => _ = default(MemoryLease<byte>).Span.Length);

        // NativeBlockPool, NativeStructPool<T> and their options
        Add<ArgumentNullException>("NativeBlockPool.Create(null)", "options", () => NativeBlockPool.Create(null!));
        Add<ArgumentNullException>("NativeStructPool.Create(null)", "options", () => NativeStructPool<int>.Create(null!));
        Add<ArgumentOutOfRangeException>("Alignment 64", "Alignment", () => NativeBlockPool.Create(new NativeBlockPoolOptions { Alignment = 64 }));
        Add<ArgumentOutOfRangeException>("Alignment 192", "Alignment", () => NativeBlockPool.Create(new NativeBlockPoolOptions { Alignment = 192 }));
        Add<ArgumentOutOfRangeException>("Alignment 4 MiB", "Alignment", () => NativeBlockPool.Create(new NativeBlockPoolOptions { Alignment = 1 << 22 }));
        Add<ArgumentOutOfRangeException>("MaximumBlockSize 127", "MaximumBlockSize", () => NativeBlockPool.Create(new NativeBlockPoolOptions { MaximumBlockSize = 127 }));
        Add<ArgumentOutOfRangeException>("MaximumBlockSize 2^30+1", "MaximumBlockSize", () => NativeBlockPool.Create(new NativeBlockPoolOptions { MaximumBlockSize = (1 << 30) + 1 }));
        Add<ArgumentOutOfRangeException>("native MaximumRetainedBytesPerSizeClass 0", "MaximumRetainedBytesPerSizeClass", () => NativeBlockPool.Create(new NativeBlockPoolOptions { MaximumRetainedBytesPerSizeClass = 0 }));
        Add<ArgumentOutOfRangeException>("ItemsPerStripe -1", "ItemsPerStripe", () => NativeBlockPool.Create(new NativeBlockPoolOptions { ItemsPerStripe = -1 }));
        Add<ArgumentOutOfRangeException>("ItemsPerStripe 65537", "ItemsPerStripe", () => NativeBlockPool.Create(new NativeBlockPoolOptions { ItemsPerStripe = 65_537 }));
        Add<ArgumentOutOfRangeException>("native StripeCount 6", "StripeCount", () => NativeBlockPool.Create(new NativeBlockPoolOptions { StripeCount = 6 }));
        Add<ArgumentOutOfRangeException>("MaximumCachingThreads -2", "MaximumCachingThreads", () => NativeBlockPool.Create(new NativeBlockPoolOptions { MaximumCachingThreads = -2 }));
        Add<ArgumentOutOfRangeException>("MaximumCachingThreads 65537", "MaximumCachingThreads", () => NativeBlockPool.Create(new NativeBlockPoolOptions { MaximumCachingThreads = 65_537 }));
        Add<ArgumentOutOfRangeException>("native TrimInterval 2 days", "TrimInterval", () => NativeBlockPool.Create(new NativeBlockPoolOptions { TrimInterval = TimeSpan.FromDays(2) }));
        Add<ArgumentOutOfRangeException>("native TrimAge 2 days", "TrimAge", () => NativeStructPool<int>.Create(new NativeBlockPoolOptions { TrimAge = TimeSpan.FromDays(2) }));
        Add<ArgumentOutOfRangeException>("NativeBlockPool.Rent(-1)", "byteLength", () => NativeBlockPool.Shared.Rent(-1));
        Add<ArgumentOutOfRangeException>("NativeStructPool.Rent(-1)", "count", () => NativeStructPool<long>.Shared.Rent(-1));
        Add<ArgumentOutOfRangeException>("NativeStructPool.RentUninitialized(MaximumCount + 1)", "count", () => NativeStructPool<long>.Shared.RentUninitialized(NativeStructPool<long>.MaximumCount + 1));
        Add<ArgumentException>("AsRef larger than the lease", "TView", () =>
        {
            using NativeBlockLease lease = NativeBlockPool.Shared.Rent(4);
            _ = lease.AsRef<long>();
        });
        Add<ArgumentOutOfRangeException>("native Memory.Pin past the end", "elementIndex", () =>
        {
            using NativeBlockLease lease = NativeBlockPool.Shared.Rent(4);
            MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(lease.Memory, out MemoryManager<byte>? manager);
            manager!.Pin(5);
        });
        Add<ObjectDisposedException>("NativeBlockPool.Rent after Dispose", null, () =>
        {
            var pool = NativeBlockPool.Create();
            pool.Dispose();
            #pragma warning disable NP0004 // The rent throws: the misuse under test.
            pool.Rent(10);
            #pragma warning restore NP0004
        });
        Add<ObjectDisposedException>("NativeStructPool.Rent after Dispose", null, () =>
        {
            var pool = NativeStructPool<int>.Create();
            pool.Dispose();
            #pragma warning disable NP0004 // The rent throws: the misuse under test.
            pool.Rent();
            #pragma warning restore NP0004
        });
        Add<ObjectDisposedException>("default NativeBlockLease.Span", null, () => _ = default(NativeBlockLease).Span.Length);
        Add<ObjectDisposedException>("default NativeStructLease.Value", null, () => _ = default(NativeStructLease<int>).Value);
        Add<InvalidOperationException>("Value of an empty struct lease", null, () =>
        {
            using NativeStructLease<int> lease = NativeStructPool<int>.Shared.Rent(0);
            _ = lease.Value;
        });
        return data;
    }

    [Theory]
    [MemberData(nameof(Cases))]
    public void BadInputThrowsTheDocumentedExceptionAndLeavesThePoolsWorking(string name, Type exceptionType, string? paramName, Action action)
    {
        Exception thrown = Assert.ThrowsAny<Exception>(action);
        Assert.True(exceptionType == thrown.GetType(), $"{name}: expected {exceptionType.Name}, got {thrown.GetType().Name}: {thrown.Message}");
        if (paramName is not null)
        {
            Assert.Equal(paramName, ((ArgumentException)thrown).ParamName);
        }

        using (IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(100))
        {
            Assert.Equal(100, owner.Memory.Length);
        }

        using NativeBlockLease lease = NativeBlockPool.Shared.Rent(100);
        Assert.Equal(100, lease.Span.Length);
    }

    /// <summary>The pooled manager behind a rent's memory (the owner handed out is a per-rent wrapper).</summary>
    private static MemoryManager<byte> Manager(IMemoryOwner<byte> owner)
    {
        Assert.True(MemoryMarshal.TryGetMemoryManager<byte, MemoryManager<byte>>(owner.Memory, out MemoryManager<byte>? manager));
        return manager!;
    }
}
