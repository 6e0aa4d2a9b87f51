using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Memory;

/// <summary>
/// The <see cref="MemoryPool{T}"/> contract every pool must keep, run against each configuration of ours and against
/// <see cref="MemoryPool{T}.Shared"/> as the reference. Rules the BCL pool does not keep (exact lengths, atomic disposes)
/// live in <see cref="StripedMemoryPoolTests"/>.
/// </summary>
public abstract class MemoryPoolContractTests
{
    public static TheoryData<int> Lengths => new() { 0, 1, 15, 16, 17, 100, 4096, 4097, 65_536, 1 << 20 };

    /// <summary>A pool to test (a fresh one when the configuration allows).</summary>
    protected abstract MemoryPool<byte> CreatePool();

    /// <summary>The configuration's <see cref="MemoryPool{T}.MaxBufferSize"/>.</summary>
    protected abstract int ExpectedMaxBufferSize { get; }

    [Theory]
    [MemberData(nameof(Lengths))]
    public void RentGivesMemoryOfAtLeastTheRequestedLength(int length)
    {
        using MemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(length);
        Assert.True(owner.Memory.Length >= length);
    }

    [Fact]
    public void RentWithoutALengthGivesAtLeastFourKilobytes()
    {
        using MemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> implicitDefault = pool.Rent();
        using IMemoryOwner<byte> explicitDefault = pool.Rent(-1);
        Assert.True(implicitDefault.Memory.Length >= 4096);
        Assert.True(explicitDefault.Memory.Length >= 4096);
    }

    [Theory]
    [InlineData(-2)]
    [InlineData(int.MinValue)]
    public void RentBelowMinusOneThrowsArgumentOutOfRange(int length)
    {
        using MemoryPool<byte> pool = CreatePool();
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(length));
    }

    [Fact]
    public void RentAboveMaxBufferSizeThrowsArgumentOutOfRange()
    {
        using MemoryPool<byte> pool = CreatePool();
        Assert.Equal(ExpectedMaxBufferSize, pool.MaxBufferSize);
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(pool.MaxBufferSize + 1));
    }

    [Fact]
    public void MemoryAfterDisposeThrowsObjectDisposed()
    {
        using MemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        owner.Dispose();
        Assert.Throws<ObjectDisposedException>(() => owner.Memory);
    }

    [Fact]
    public void SecondDisposeIsIgnored()
    {
        using MemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte> owner = pool.Rent(100);
        owner.Dispose();
        owner.Dispose();
        using IMemoryOwner<byte> next = pool.Rent(100);
        Assert.True(next.Memory.Length >= 100);
    }

    [Fact]
    public void OutstandingOwnersNeverShareMemory()
    {
        using MemoryPool<byte> pool = CreatePool();
        var owners = new List<IMemoryOwner<byte>>();
        for (int i = 0; i < 64; i++)
        {
            IMemoryOwner<byte> owner = pool.Rent(100 + (i % 3));
            owner.Memory.Span.Fill((byte)i);
            owners.Add(owner);
        }

        for (int i = 0; i < owners.Count; i++)
        {
            Assert.True(owners[i].Memory.Span.IndexOfAnyExcept((byte)i) < 0, $"Owner {i} was overwritten by another owner.");
        }

        owners.ForEach(o => o.Dispose());
    }

    [Fact]
    public void WholeMemoryIsWritableAndReadable()
    {
        using MemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(10_000);
        Span<byte> span = owner.Memory.Span;
        for (int i = 0; i < span.Length; i++)
        {
            span[i] = (byte)(i * 7);
        }

        for (int i = 0; i < span.Length; i++)
        {
            Assert.Equal((byte)(i * 7), span[i]);
        }
    }

    [Fact]
    public unsafe void PinGivesTheAddressOfTheFirstElement()
    {
        using MemoryPool<byte> pool = CreatePool();
        using IMemoryOwner<byte> owner = pool.Rent(100);
        using MemoryHandle handle = owner.Memory.Pin();
        Assert.Equal((nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(owner.Memory.Span)), (nint)handle.Pointer);
    }

    [Fact]
    public async Task RentOnOneThreadDisposeOnAnother()
    {
        using MemoryPool<byte> pool = CreatePool();
        IMemoryOwner<byte>[] owners = Enumerable.Range(0, 100).Select(i => pool.Rent(256)).ToArray();
        await Task.Run(() =>
        {
            foreach (IMemoryOwner<byte> owner in owners)
            {
                owner.Dispose();
            }
        });
        using IMemoryOwner<byte> again = pool.Rent(256);
        Assert.True(again.Memory.Length >= 256);
    }

    [Fact]
    public void DisposingThePoolTwiceIsAllowed()
    {
        MemoryPool<byte> pool = CreatePool();
        pool.Dispose();
        Exception? afterFirst = Record.Exception(() => pool.Rent(16).Dispose());

        pool.Dispose();

        // The second dispose changes nothing: a rent does what it did after the first one (the process-wide pools
        // ignore disposal and still rent; an instance pool refuses every rent from the first dispose on).
        Exception? afterSecond = Record.Exception(() => pool.Rent(16).Dispose());
        bool rentsAfterDispose = pool is not StripedMemoryPool<byte> striped || ReferenceEquals(striped, StripedMemoryPool<byte>.Shared);
        Assert.Equal(rentsAfterDispose ? null : typeof(ObjectDisposedException), afterFirst?.GetType());
        Assert.Equal(afterFirst?.GetType(), afterSecond?.GetType());
    }
}
