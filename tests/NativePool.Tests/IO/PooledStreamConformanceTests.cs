using System.IO;

namespace NativePool.Tests.IO;

/// <summary>
/// Every <see cref="Stream"/> member of <see cref="PooledStream"/> against <see cref="MemoryStream"/> as the oracle: the
/// same results, the same exception types, the same length, position and bytes after each step, on managers with small
/// blocks (so most operations cross block boundaries) and with the default ones.
/// </summary>
public class PooledStreamConformanceTests
{
    public static TheoryData<int> BlockSizes => new() { 1024, PooledStreamManagerOptions.DefaultBlockSize };

    private static PooledStreamManager Manager(int blockSize) =>
        PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = blockSize, TrimmingEnabled = false });

    private static byte[] Pattern(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    [Theory]
    [MemberData(nameof(BlockSizes))]
    public void WritesReadsAndSeeksAgreeWithMemoryStream(int blockSize)
    {
        using var pair = new StreamOracle(Manager(blockSize));
        byte[] data = Pattern(5000, 1);
        pair.Check("write across blocks", s => { s.Write(data, 0, data.Length); return null; });
        pair.Check("seek to the start", s => s.Seek(0, SeekOrigin.Begin));
        pair.Check("read some", s => { var b = new byte[1500]; int n = s.Read(b, 0, b.Length); return Convert.ToHexString(b, 0, n); });
        pair.Check("read a byte", s => s.ReadByte());
        pair.Check("seek back from the end", s => s.Seek(-10, SeekOrigin.End));
        pair.Check("read past the end", s => { var b = new byte[100]; return s.Read(b.AsSpan()); });
        pair.Check("read at the end", s => s.Read(new byte[10], 0, 10));
        pair.Check("read a byte at the end", s => s.ReadByte());
        pair.Check("seek from the current position", s => s.Seek(-2000, SeekOrigin.Current));
        pair.Check("overwrite in the middle", s => { s.Write(data.AsSpan(0, 3000)); return null; });
        pair.Check("write a byte", s => { s.WriteByte(0x5A); return null; });
        pair.Check("write nothing", s => { s.Write([], 0, 0); return null; });
    }

    [Theory]
    [MemberData(nameof(BlockSizes))]
    public void SeekingPastTheEndAndWritingZeroFillsTheGap(int blockSize)
    {
        using var pair = new StreamOracle(Manager(blockSize));

        // Dirty the pool first: a block another stream wrote must not show through the gap.
        using (PooledStream dirty = pair.Pooled.Manager.GetStream())
        {
            dirty.Write(Enumerable.Repeat((byte)0xFF, 8192).ToArray());
        }

        pair.Check("write", s => { s.Write(Pattern(100, 2)); return null; });
        pair.Check("seek past the end", s => s.Seek(3000, SeekOrigin.End));
        pair.Check("length unchanged", s => s.Length);
        pair.Check("read past the end", s => s.ReadByte());
        pair.Check("write after the gap", s => { s.Write(Pattern(10, 3)); return null; });
        pair.Check("position past the end", s => { s.Position = 9000; return s.Position; });
        pair.Check("write a byte after the gap", s => { s.WriteByte(7); return null; });
    }

    [Theory]
    [MemberData(nameof(BlockSizes))]
    public void SetLengthShrinksAndGrowsWithZeroing(int blockSize)
    {
        using var pair = new StreamOracle(Manager(blockSize));
        pair.Check("write", s => { s.Write(Pattern(4000, 4)); return null; });
        pair.Check("shrink below the position", s => { s.SetLength(1000); return null; });
        pair.Check("grow (zeroes the old bytes)", s => { s.SetLength(6000); return null; });
        pair.Check("shrink to 0", s => { s.SetLength(0); return null; });
        pair.Check("grow from 0", s => { s.SetLength(2500); return null; });
        pair.Check("set the same length", s => { s.SetLength(2500); return null; });
        pair.Check("negative length", s => { s.SetLength(-1); return null; });
    }

    [Fact]
    public void BadArgumentsThrowWhatMemoryStreamThrows()
    {
        using var pair = new StreamOracle(Manager(1024));
        pair.Check("write", s => { s.Write(Pattern(100, 5)); return null; });
        pair.Check("read into null", s => s.Read(null!, 0, 1));
        pair.Check("read at a negative offset", s => s.Read(new byte[4], -1, 1));
        pair.Check("read a negative count", s => s.Read(new byte[4], 0, -1));
        pair.Check("read past the array", s => s.Read(new byte[4], 2, 3));
        pair.Check("write from null", s => { s.Write(null!, 0, 1); return null; });
        pair.Check("write past the array", s => { s.Write(new byte[4], 3, 2); return null; });
        pair.Check("seek before the start", s => s.Seek(-1, SeekOrigin.Begin));
        pair.Check("seek before the start from the end", s => s.Seek(-101, SeekOrigin.End));
        pair.Check("seek with a bad origin", s => s.Seek(0, (SeekOrigin)7));
        pair.Check("negative position", s => { s.Position = -1; return null; });
        pair.Check("capacity below the length", s => { ((MemoryStream)s).Capacity = 50; return null; });
        pair.Check("copy to null", s => { s.CopyTo(null!); return null; });
        pair.Check("copy with a zero buffer size", s => { s.CopyTo(new MemoryStream(), 0); return null; });
        pair.Check("copy to a read-only stream", s => { s.CopyTo(new MemoryStream(new byte[1], writable: false)); return null; });
        pair.Check("write to null", s => { ((MemoryStream)s).WriteTo(null!); return null; });
        pair.Check("read async into null", s => s.ReadAsync(null!, 0, 1));
        pair.Check("write async past the array", s => s.WriteAsync(new byte[4], 3, 2));
    }

    [Fact]
    public void EveryMemberAfterDisposeAgreesWithMemoryStream()
    {
        using var pair = new StreamOracle(Manager(1024));
        pair.Check("write", s => { s.Write(Pattern(3000, 6)); return null; });
        pair.Check("dispose", s => { s.Dispose(); return null; });
        pair.Check("dispose again", s => { s.Dispose(); return null; });
        pair.Check("length", s => s.Length);
        pair.Check("position", s => s.Position);
        pair.Check("set position", s => { s.Position = 1; return null; });
        pair.Check("set a negative position", s => { s.Position = -1; return null; });
        pair.Check("capacity", s => ((MemoryStream)s).Capacity);
        pair.Check("set capacity", s => { ((MemoryStream)s).Capacity = 10; return null; });
        pair.Check("read", s => s.Read(new byte[1], 0, 1));
        pair.Check("read a span", s => s.Read(new byte[1].AsSpan()));
        pair.Check("read a byte", s => s.ReadByte());
        pair.Check("write", s => { s.Write(new byte[1], 0, 1); return null; });
        pair.Check("write a byte", s => { s.WriteByte(1); return null; });
        pair.Check("seek", s => s.Seek(0, SeekOrigin.Begin));
        pair.Check("set length", s => { s.SetLength(1); return null; });
        pair.Check("set a negative length", s => { s.SetLength(-1); return null; });
        pair.Check("flush", s => { s.Flush(); return null; });
        pair.Check("flush async", s => s.FlushAsync());
        pair.Check("write to", s => { ((MemoryStream)s).WriteTo(new MemoryStream()); return null; });
        pair.Check("copy to", s => { s.CopyTo(new MemoryStream()); return null; });
        pair.Check("copy to async", s => s.CopyToAsync(new MemoryStream()));
        pair.Check("read async", s => s.ReadAsync(new byte[1], 0, 1));
        pair.Check("read async memory", s => s.ReadAsync(new byte[1].AsMemory()).AsTask());
        pair.Check("write async", s => s.WriteAsync(new byte[1], 0, 1));
        pair.Check("write async memory", s => s.WriteAsync(new byte[1].AsMemory()).AsTask());
    }

    [Fact]
    public void TheDocumentedDifferencesAfterDisposeThrowObjectDisposed()
    {
        // MemoryStream keeps its array after Dispose; a pooled stream's buffers went back to the pool.
        PooledStream stream = Manager(1024).GetStream();
        stream.Write(Pattern(10, 7));
        stream.Dispose();
        Assert.Throws<ObjectDisposedException>(() => stream.GetBuffer());
        Assert.Throws<ObjectDisposedException>(() => stream.ToArray());
        Assert.Throws<ObjectDisposedException>(() => stream.GetReadOnlySequence());
        Assert.False(stream.TryGetBuffer(out ArraySegment<byte> segment));
        Assert.Null(segment.Array);
    }

    [Theory]
    [MemberData(nameof(BlockSizes))]
    public async Task AsyncMembersAgreeWithMemoryStream(int blockSize)
    {
        using var pair = new StreamOracle(Manager(blockSize));
        byte[] data = Pattern(3000, 8);
        pair.Check("write async", s => s.WriteAsync(data, 0, data.Length));
        pair.Check("write async memory", s => s.WriteAsync(data.AsMemory(100, 500)).AsTask());
        pair.Check("seek", s => s.Seek(10, SeekOrigin.Begin));
        pair.Check("read async", s => { var b = new byte[2000]; return s.ReadAsync(b, 0, b.Length); });
        pair.Check("read async memory", s => s.ReadAsync(new byte[5000].AsMemory()).AsTask());
        pair.Check("flush async", s => s.FlushAsync());
        pair.Check("seek for the copy", s => s.Seek(700, SeekOrigin.Begin));

        var fromOracle = new MemoryStream();
        var fromPooled = new MemoryStream();
        await pair.Oracle.CopyToAsync(fromOracle);
        await pair.Pooled.CopyToAsync(fromPooled);
        Assert.Equal(fromOracle.ToArray(), fromPooled.ToArray());
        pair.CheckState("after the async copy");
    }

    [Fact]
    public void ACancelledTokenGivesACancelledTaskAndChangesNothing()
    {
        using var pair = new StreamOracle(Manager(1024));
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();
        pair.Check("write", s => { s.Write(Pattern(2000, 9)); s.Position = 5; return null; });
        pair.Check("read async", s => s.ReadAsync(new byte[10], 0, 10, cancelled.Token));
        pair.Check("read async memory", s => s.ReadAsync(new byte[10].AsMemory(), cancelled.Token).AsTask());
        pair.Check("write async", s => s.WriteAsync(new byte[10], 0, 10, cancelled.Token));
        pair.Check("write async memory", s => s.WriteAsync(new byte[10].AsMemory(), cancelled.Token).AsTask());
        pair.Check("flush async", s => s.FlushAsync(cancelled.Token));
        pair.Check("copy async", s => s.CopyToAsync(new MemoryStream(), 81920, cancelled.Token));

        Task task = pair.Pooled.ReadAsync(new byte[10], 0, 10, cancelled.Token);
        Assert.True(task.IsCanceled);
    }

    [Theory]
    [MemberData(nameof(BlockSizes))]
    public void CopyToWriteToAndTheBufferViewsAgreeWithMemoryStream(int blockSize)
    {
        using var pair = new StreamOracle(Manager(blockSize));
        pair.Check("write", s => { s.Write(Pattern(4500, 10)); return null; });
        pair.Check("seek", s => s.Seek(1234, SeekOrigin.Begin));
        pair.Check("copy to", s => { var d = new MemoryStream(); s.CopyTo(d, 100); return d.ToArray(); });
        pair.Check("copy to at the end", s => { var d = new MemoryStream(); s.CopyTo(d); return d.ToArray(); });
        pair.Check("copy to past the end", s => { s.Position = 9000; var d = new MemoryStream(); s.CopyTo(d); return d.ToArray(); });
        pair.Check("write to", s => { var d = new MemoryStream(); ((MemoryStream)s).WriteTo(d); return d.ToArray(); });
        pair.Check("to array", s => ((MemoryStream)s).ToArray());
        pair.Check("get buffer", s => Convert.ToHexString(((MemoryStream)s).GetBuffer(), 0, (int)s.Length));
        pair.Check("try get buffer", s => ((MemoryStream)s).TryGetBuffer(out ArraySegment<byte> b) ? Convert.ToHexString(b) : null);
        pair.Check("write after get buffer", s => { s.Position = 4000; s.Write(Pattern(3000, 11)); return null; });
        pair.Check("get buffer again", s => Convert.ToHexString(((MemoryStream)s).GetBuffer(), 0, (int)s.Length));
        pair.Check("set capacity", s => { ((MemoryStream)s).Capacity = 20_000; return null; });
        pair.Check("begin/end read", s => { var b = new byte[10]; s.Position = 3; return s.EndRead(s.BeginRead(b, 0, 10, null, null)); });
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void RandomOperationSequencesAgreeWithMemoryStream(int seed)
    {
        var random = new Random(seed);
        using var pair = new StreamOracle(Manager(1024));
        for (int step = 0; step < 400; step++)
        {
            int length = random.Next(0, 3000);
            long offset = random.Next(-2000, 6000);
            switch (random.Next(9))
            {
                case 0:
                    byte[] data = Pattern(length, step);
                    pair.Check($"{step}: write {length}", s => { s.Write(data); return null; });
                    break;
                case 1:
                    pair.Check($"{step}: read {length}", s => { var b = new byte[length]; int n = s.Read(b, 0, length); return Convert.ToHexString(b, 0, n); });
                    break;
                case 2:
                    pair.Check($"{step}: seek {offset} from the start", s => s.Seek(offset, SeekOrigin.Begin));
                    break;
                case 3:
                    pair.Check($"{step}: seek {offset} from the end", s => s.Seek(offset - 3000, SeekOrigin.End));
                    break;
                case 4:
                    pair.Check($"{step}: set length {length * 2}", s => { s.SetLength(length * 2); return null; });
                    break;
                case 5:
                    pair.Check($"{step}: write a byte", s => { s.WriteByte((byte)step); return null; });
                    break;
                case 6:
                    pair.Check($"{step}: read a byte", s => s.ReadByte());
                    break;
                case 7:
                    pair.Check($"{step}: position {offset}", s => { s.Position = offset; return s.Position; });
                    break;
                default:
                    pair.Check($"{step}: get buffer", s => Convert.ToHexString(((MemoryStream)s).GetBuffer(), 0, (int)s.Length));
                    break;
            }
        }
    }
}
