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
