using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool.Tests.Native;

/// <summary>Native leases of one struct type: ref T, T*, Span&lt;T&gt; and Memory&lt;T&gt; views over one aligned block.</summary>
public sealed class NativeStructPoolTests
{
    [StructLayout(LayoutKind.Sequential)]
    public struct Vertex
    {
        public float X;
        public float Y;
        public float Z;
        public int Color;
    }

    [Fact]
    public unsafe void RentGivesOneZeroedStructWithEveryViewOnIt()
    {
        using var pool = NativeStructPool<Vertex>.Create();
        using (NativeStructLease<Vertex> dirty = pool.RentUninitialized(1))
        {
            dirty.Value = new Vertex { X = 1, Y = 2, Z = 3, Color = -1 };
        }

        using NativeStructLease<Vertex> lease = pool.Rent();
        Assert.Equal(1, lease.Length);
        Assert.Equal(default, lease.Value);
        lease.Value.Color = 42;
        Assert.Equal(42, lease.Pointer->Color);
        Assert.Equal(42, lease.Span[0].Color);
        Assert.Equal(42, lease.Memory.Span[0].Color);
        Assert.Equal((nint)lease.Pointer, (nint)Unsafe.AsPointer(ref lease.Value));
        using MemoryHandle handle = lease.Memory.Pin();
        Assert.Equal((nint)lease.Pointer, (nint)handle.Pointer);
        Assert.Equal(0, (nint)lease.Pointer % pool.Alignment);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(8)]
    [InlineData(100)]
    [InlineData(70_000)]
    public void RentOfACountGivesThatManyZeroedStructs(int count)
    {
        using var pool = NativeStructPool<Vertex>.Create(new NativeBlockPoolOptions { TrimmingEnabled = false });
        using (NativeStructLease<Vertex> dirty = pool.RentUninitialized(count))
        {
            dirty.Span.Fill(new Vertex { Color = 7 });
        }

        using NativeStructLease<Vertex> lease = pool.Rent(count);
        Assert.Equal(count, lease.Length);
        Assert.Equal(count, lease.Span.Length);
        Assert.Equal(count, lease.Memory.Length);
        foreach (Vertex v in lease.Span)
        {
            Assert.Equal(default, v);
        }
    }

    [Fact]
    public void AnEmptyLeaseHasNoValue()
    {
        using var pool = NativeStructPool<Vertex>.Create();
        using NativeStructLease<Vertex> lease = pool.Rent(0);
        Assert.Throws<InvalidOperationException>(() => lease.Value.Color);
        Assert.Equal(0, lease.Span.Length);
    }

    [Fact]
    public unsafe void EndedAndDefaultLeasesThrowObjectDisposedOnEveryView()
    {
        using var pool = NativeStructPool<long>.Create();
        NativeStructLease<long> ended = pool.Rent();
        NativeStructLease<long> copy = ended;
        ended.Dispose();
        foreach (NativeStructLease<long> lease in new[] { ended, copy, default })
        {
            Assert.False(lease.IsActive);
            Assert.Throws<ObjectDisposedException>(() => lease.Value);
            Assert.Throws<ObjectDisposedException>(() => (nint)lease.Pointer);
            Assert.Throws<ObjectDisposedException>(() => lease.Span.Length);
            Assert.Throws<ObjectDisposedException>(() => lease.Memory);
            lease.Dispose();
        }

        PoolStatistics stats = pool.GetStatistics().Blocks;
        Assert.Equal(1, stats.Allocated);
        Assert.Equal(1, stats.Pooled);
        Assert.Equal(0, stats.Outstanding);
    }

    [Fact]
    public void FreesEqualAllocationsAfterDispose()
    {
        var pool = NativeStructPool<Vertex>.Create(new NativeBlockPoolOptions { MaximumBlockSize = 4096, TrimmingEnabled = false });
        var leases = new List<NativeStructLease<Vertex>>();
        for (int i = 0; i < 200; i++)
        {
            leases.Add(pool.Rent(i * 3));
        }

        leases.ForEach(l => l.Dispose());
        pool.Dispose();
        NativeBlockStatistics stats = pool.GetStatistics();
        Assert.Equal(stats.BlocksAllocated, stats.BlocksFreed);
        Assert.Equal(0, stats.LiveBytes);
        Assert.Equal(0, stats.Blocks.Outstanding);
    }

    [Fact]
    public void MaximumCountKeepsTheBlockWithinIntMaxValueBytes()
    {
        Assert.Equal(int.MaxValue / 16, NativeStructPool<Vertex>.MaximumCount);
        Assert.Equal(int.MaxValue, NativeStructPool<byte>.MaximumCount);
    }
}
