using System.IO;
using Microsoft.IO;
using NativePool.Tests.ArrayPool;

namespace NativePool.Tests.IO;

/// <summary>
/// Positions and lengths are 64-bit, as RecyclableMemoryStream's: what needs no storage is checked always, a stream that
/// really holds more than 2 GiB only in the huge run.
/// </summary>
public class PooledStreamPastTwoGibibytesTests
{
    private const long ThreeGibibytes = 3L << 30;

    [Fact]
    public void APositionPastTwoGibibytesIsKeptAsRecyclableMemoryStreamKeepsIt()
    {
        using RecyclableMemoryStream reference = new RecyclableMemoryStreamManager().GetStream();
        using PooledStream stream = PooledStreamManager.Create().GetStream();
        reference.Position = ThreeGibibytes;
        stream.Position = ThreeGibibytes;
        Assert.Equal(reference.Position, stream.Position);
        Assert.Equal(reference.Seek(1, SeekOrigin.Current), stream.Seek(1, SeekOrigin.Current));
        Assert.Equal(0, stream.Length);
        Assert.Equal(-1, stream.ReadByte());
        Assert.Equal(0, stream.Capacity64);
    }

    [Fact]
    public void APositionPastTheLongestStreamIsRefused()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = 1024 });
        using PooledStream stream = manager.GetStream();
        long longest = (long)Array.MaxLength * 1024;
        stream.Position = longest;
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Position = longest + 1);
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Seek(long.MaxValue, SeekOrigin.Begin));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.SetLength(longest + 1));
        Assert.Throws<IOException>(() => stream.WriteByte(1));
        Assert.Equal(0, stream.Length);
        stream.Dispose();
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [HugeFact]
    [Trait("Category", "Huge")]
    public void AStreamWithRoomPastTheLongestArrayRefusesTryGetBufferAndGetBufferAsRecyclableMemoryStreamDoesWithoutAllocating()
    {
        // 20 480 blocks of 128 KiB: a capacity no array can hold, though the stream is empty.
        const long Size = 2_684_354_560;

        // RecyclableMemoryStream, the reference: TryGetBuffer is false and its capacity stays. Its free blocks are not
        // kept (one block's worth at most), so they do not stay in memory beside ours.
        var recyclable = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options { MaximumSmallPoolFreeBytes = 128 * 1024 });
        using (RecyclableMemoryStream reference = recyclable.GetStream("huge", Size))
        {
            Assert.Equal(Size, reference.Capacity64);
            Assert.False(reference.TryGetBuffer(out ArraySegment<byte> referenceSegment));
            Assert.Equal(0, referenceSegment.Count);
            Assert.Equal(Size, reference.Capacity64);
        }

        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { TrimmingEnabled = false });
        using (PooledStream stream = manager.GetStream("huge", Size))
        {
            Assert.Equal(Size, stream.Capacity64);

            long before = GC.GetAllocatedBytesForCurrentThread();
            Assert.False(stream.TryGetBuffer(out ArraySegment<byte> segment));
            long refusing = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Equal(0, segment.Count);
            Assert.Equal(Size, stream.Capacity64);

            before = GC.GetAllocatedBytesForCurrentThread();
            Assert.Throws<InvalidOperationException>(() => stream.GetBuffer());
            long throwing = GC.GetAllocatedBytesForCurrentThread() - before;
            Assert.Equal(Size, stream.Capacity64);

            // Neither allocates storage: not even one block's worth (the exception and its message are far less).
            Assert.True(refusing < manager.BlockSize, $"TryGetBuffer allocated {refusing} bytes.");
            Assert.True(throwing < manager.BlockSize, $"GetBuffer allocated {throwing} bytes.");
            Assert.Equal(0, manager.BufferBytesInUse);
            Assert.Equal(Size, manager.BlockBytesInUse);
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [HugeFact]
    [Trait("Category", "Huge")]
    public void AStreamOfThreeGibibytesWritesReadsAndRefusesOnlyTheOneArrayViews()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { TrimmingEnabled = false });
        using (PooledStream stream = manager.GetStream())
        {
            stream.Position = ThreeGibibytes;
            stream.WriteByte(0x5A);
            Assert.Equal(ThreeGibibytes + 1, stream.Length);
            Assert.True(stream.Capacity64 > ThreeGibibytes);
            Assert.Throws<InvalidOperationException>(() => stream.Capacity);
            Assert.Throws<InvalidOperationException>(() => stream.GetBuffer());
            Assert.Throws<InvalidOperationException>(() => stream.ToArray());
            Assert.False(stream.TryGetBuffer(out _));

            long at = ThreeGibibytes;
            Assert.Equal(0x5A, stream.SafeReadByte(ref at));
            at = 1L << 31;
            Assert.Equal(0, stream.SafeReadByte(ref at));
            Assert.Equal(ThreeGibibytes + 1, stream.GetReadOnlySequence().Length);
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }
}
