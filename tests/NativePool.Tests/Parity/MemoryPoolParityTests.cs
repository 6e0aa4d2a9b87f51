using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Parity;

/// <summary>
/// The ideas of the runtime's own <c>MemoryPool&lt;T&gt;</c> tests, run against <see cref="MemoryPool{T}.Shared"/> (the
/// control) and against ours. Upstream names and verdicts: docs/parity.md.
/// </summary>
public abstract class MemoryPoolParityTests
{
    public static TheoryData<int> BadSizes => new() { -2, int.MinValue };

    [Fact]
    public void SharedIsOneInstance() => Assert.Same(SharedPool(), SharedPool());

    [Fact]
    public void DisposingTheSharedPoolDoesNothing()
    {
        MemoryPool<int> pool = SharedPool();
        pool.Dispose();
        pool.Dispose();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Assert.True(owner.Memory.Length >= 10);
    }

    [Fact]
    public void RentingMoreThanMaxBufferSizeThrows()
    {
        using MemoryPool<int> pool = CreatePool();
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(pool.MaxBufferSize + 1));
    }

    [Fact]
    public unsafe void MemorySpanArrayAndPinAllSeeTheSameElements()
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Memory<int> memory = owner.Memory;
        Span<int> span = memory.Span;
        Assert.Equal(memory.Length, span.Length);
        Assert.True(MemoryMarshal.TryGetArray<int>(memory, out _));
        using MemoryHandle handle = memory.Pin();
        Assert.Equal((nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(span)), (nint)handle.Pointer);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(10)]
    public unsafe void PinningASliceGivesTheSlicesAddress(int index)
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Memory<int> memory = owner.Memory;
        Span<int> span = memory.Span;
        Assert.True(MemoryMarshal.TryGetArray<int>(memory, out _));
        using MemoryHandle handle = memory.Slice(index).Pin();
        Assert.Equal((nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(span.Slice(index))), (nint)handle.Pointer);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(int.MinValue)]
    public void PinningAtANegativeOffsetThrows(int index)
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Memory<int> memory = owner.Memory;
        Assert.Throws<ArgumentOutOfRangeException>(() => memory.Slice(index).Pin());
    }

    [Fact]
    public unsafe void PinningAtTheEndGivesTheEndAddress()
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Memory<int> memory = owner.Memory;
        Span<int> span = memory.Span;
        Assert.True(MemoryMarshal.TryGetArray<int>(memory, out _));
        using MemoryHandle handle = memory.Slice(memory.Length).Pin();
        Assert.Equal((nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(span.Slice(memory.Length))), (nint)handle.Pointer);
    }

    [Fact]
    public void PinningPastTheEndThrows()
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(10);
        Memory<int> memory = owner.Memory;
        Assert.Equal(memory.Length, memory.Span.Length);
        Assert.True(MemoryMarshal.TryGetArray<int>(memory, out _));
        Assert.Throws<ArgumentOutOfRangeException>(() => memory.Slice(memory.Length + 1).Pin());
    }

    [Fact]
    public unsafe void EveryRentIsItsOwnBufferUntilDisposed()
    {
        using MemoryPool<int> pool = CreatePool();

        // Upstream's 100 lengths: Random(42), |Next() % 1000| + 1.
        var random = new Random(42);
        int[] lengths = [.. Enumerable.Range(0, 100).Select(_ => Math.Abs(random.Next() % 1000) + 1)];
        var owners = new List<IMemoryOwner<int>>();
        foreach (int length in lengths)
        {
            IMemoryOwner<int> owner = pool.Rent(length);
            Memory<int> memory = owner.Memory;
            Assert.True(memory.Length >= length);
            Assert.True(MemoryMarshal.TryGetArray<int>(owner.Memory, out _));
            foreach (IMemoryOwner<int> prior in owners)
            {
                Assert.True(MemoryMarshal.TryGetArray<int>(prior.Memory, out _));
                using MemoryHandle old = prior.Memory.Pin();
                using MemoryHandle fresh = owner.Memory.Pin();
                Assert.NotEqual((nint)old.Pointer, (nint)fresh.Pointer);

                // Beyond upstream: no two live buffers share an element.
                Assert.False(prior.Memory.Span.Overlaps(memory.Span));
            }

            owners.Add(owner);
        }

        foreach (IMemoryOwner<int> owner in owners)
        {
            Assert.True(MemoryMarshal.TryGetArray<int>(owner.Memory, out _));
            owner.Dispose();
        }
    }

    [Fact]
    public void RentWithTheDefaultSizeGivesAtLeastOneElementAndToleratesADoubleDispose()
    {
        using MemoryPool<int> pool = CreatePool();
        using (IMemoryOwner<int> owner = pool.Rent(-1))
        {
            Assert.True(owner.Memory.Length >= 1);
        }

        using (IMemoryOwner<int> owner = pool.Rent(-1))
        {
            Assert.True(owner.Memory.Length >= 1);
            owner.Dispose();
        }
    }

    [Theory]
    [MemberData(nameof(BadSizes))]
    public void RentingALengthBelowMinusOneThrows(int length)
    {
        using MemoryPool<int> pool = CreatePool();
        Assert.Throws<ArgumentOutOfRangeException>(() => pool.Rent(length));
    }

    [Fact]
    public unsafe void TryGetArrayGivesTheArrayBehindTheMemory()
    {
        using MemoryPool<int> pool = CreatePool();
        using IMemoryOwner<int> owner = pool.Rent(42);
        Memory<int> memory = owner.Memory;
        Assert.True(MemoryMarshal.TryGetArray(memory, out ArraySegment<int> segment));
        Assert.Equal(memory.Length, segment.Count);

        // As upstream MemoryPoolTryGetArray: the memory starts at the array's first element.
        Assert.Equal(0, segment.Offset);
        fixed (int* array = segment.Array)
        {
            Assert.Equal((nint)array, (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(memory.Span)));
        }
    }

    [Fact]
    public void ExtraDisposesAreIgnored()
    {
        using MemoryPool<int> pool = CreatePool();
        IMemoryOwner<int> owner = pool.Rent(42);
        owner.Dispose();
        owner.Dispose();

        // The buffer went back once: had it gone back twice, the next two rents would share it.
        using IMemoryOwner<int> first = pool.Rent(42);
        using IMemoryOwner<int> second = pool.Rent(42);
        Assert.False(first.Memory.Span.Overlaps(second.Memory.Span));
    }

    [Fact]
    public void MemoryAfterDisposeThrows()
    {
        using MemoryPool<int> pool = CreatePool();
        IMemoryOwner<int> owner = pool.Rent(42);
        owner.Dispose();
        Assert.Throws<ObjectDisposedException>(() => owner.Memory);
    }

    /// <summary>The process-wide pool of the implementation under test.</summary>
    protected abstract MemoryPool<int> SharedPool();

    /// <summary>The pool the tests rent from (Shared, or a fresh instance); disposing it must be harmless.</summary>
    protected abstract MemoryPool<int> CreatePool();
}
