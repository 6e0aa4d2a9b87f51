using System.IO;
using System.Runtime.CompilerServices;
using Microsoft.IO;

namespace NativePool.Tests.IO;

/// <summary>
/// Storage a stream has handed out — a sequence, a buffer, writable memory — stays the stream's until it is disposed,
/// whatever the stream does to its storage meanwhile: no other stream ever writes into it. RecyclableMemoryStream and
/// <see cref="MemoryStream"/> run the same steps beside ours as the reference.
/// </summary>
public class PooledStreamStorageLifetimeTests
{
    private const int BlockSize = 16_384;

    public static TheoryData<bool> ZeroOnReturn => new() { false, true };

    private static PooledStreamManager Manager(bool zeroOnReturn = false) =>
        PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = BlockSize, TrimmingEnabled = false, ZeroOnReturn = zeroOnReturn });

    private static RecyclableMemoryStreamManager Recyclable(bool zeroOnReturn = false) =>
        new(new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize, ZeroOutBuffer = zeroOnReturn });

    private static int CountNot(ReadOnlySequence<byte> sequence, byte expected)
    {
        int changed = 0;
        foreach (ReadOnlyMemory<byte> segment in sequence)
        {
            foreach (byte b in segment.Span)
            {
                changed += b == expected ? 0 : 1;
            }
        }

        return changed;
    }

    /// <summary>
    /// Takes a sequence of a stream of one block and a byte, calls <c>GetBuffer</c>, fills a second stream with other
    /// bytes, and counts the bytes of the sequence that changed.
    /// </summary>
    private static int ChangedAfterGetBuffer(Func<MemoryStream> newStream, Func<MemoryStream, ReadOnlySequence<byte>> sequenceOf)
    {
        using MemoryStream a = newStream();
        Fill(a, BlockSize + 1, 0x11);
        ReadOnlySequence<byte> sequence = sequenceOf(a);
        _ = a.GetBuffer();
        using MemoryStream b = newStream();
        Fill(b, 2 * BlockSize, 0xEE);
        return CountNot(sequence, 0x11);
    }

    /// <summary>Writes <paramref name="length"/> bytes of <paramref name="value"/> into <paramref name="stream"/>.</summary>
    private static void Fill(Stream stream, int length, byte value) => stream.Write(Enumerable.Repeat(value, length).ToArray());

    [Theory]
    [MemberData(nameof(ZeroOnReturn))]
    public void ASequenceTakenBeforeGetBufferKeepsItsBytesWhileAnotherStreamWrites(bool zeroOnReturn)
    {
        // RecyclableMemoryStream: the reference.
        RecyclableMemoryStreamManager recyclable = Recyclable(zeroOnReturn);
        Assert.Equal(0, ChangedAfterGetBuffer(() => recyclable.GetStream(), s => ((RecyclableMemoryStream)s).GetReadOnlySequence()));

        PooledStreamManager manager = Manager(zeroOnReturn);
        Assert.Equal(0, ChangedAfterGetBuffer(() => manager.GetStream(), s => ((PooledStream)s).GetReadOnlySequence()));
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void MemoryFromGetMemoryKeepsItsBytesAfterGetBufferAndAdvanceCommitsThem()
    {
        PooledStreamManager manager = Manager();
        using PooledStream a = manager.GetStream();
        Fill(a, BlockSize + 1, 0x11);
        Memory<byte> memory = a.GetMemory(100);
        memory.Span.Slice(0, 100).Fill(0x22);
        byte[] buffer = a.GetBuffer();
        using (PooledStream b = manager.GetStream())
        {
            Fill(b, 4 * BlockSize, 0xEE);
        }

        a.Advance(100);
        Assert.Equal(BlockSize + 101, a.Length);
        Assert.Equal(BlockSize + 101, a.Position);
        byte[] contents = a.ToArray();
        Assert.Equal(BlockSize + 1, contents.Count(b => b == 0x11));
        Assert.Equal(100, contents.Count(b => b == 0x22));
        Assert.True(buffer.Length >= BlockSize + 1);
    }

    [Fact]
    public void MemoryWrittenAfterGetBufferIsCommittedByAdvance()
    {
        PooledStreamManager manager = Manager();
        using PooledStream a = manager.GetStream();
        Fill(a, BlockSize + 1, 0x11);
        Memory<byte> memory = a.GetMemory(100);
        _ = a.GetBuffer();
        memory.Span.Slice(0, 50).Fill(0x33);
        a.Advance(50);
        byte[] contents = a.ToArray();
        Assert.Equal(BlockSize + 51, contents.Length);
        Assert.All(contents.AsSpan(BlockSize + 1).ToArray(), b => Assert.Equal(0x33, b));
    }

    [Fact]
    public void GetBufferNeverShrinksTheCapacity()
    {
        using var memoryStream = new MemoryStream();
        memoryStream.Capacity = BlockSize + 1;
        byte[] reference = memoryStream.GetBuffer();
        reference[BlockSize] = 1;
        Assert.Equal(BlockSize + 1, memoryStream.Capacity);

        RecyclableMemoryStreamManager recyclable = Recyclable();
        using (RecyclableMemoryStream r = recyclable.GetStream())
        {
            r.Capacity = BlockSize + 1;
            int before = r.Capacity;
            byte[] buffer = r.GetBuffer();
            buffer[BlockSize] = 1;
            Assert.True(r.Capacity >= before);
            Assert.True(buffer.Length >= before);
        }

        using PooledStream stream = Manager().GetStream();
        stream.Capacity = BlockSize + 1;
        int capacity = stream.Capacity;
        Assert.True(capacity >= BlockSize + 1);
        byte[] ours = stream.GetBuffer();
        ours[BlockSize] = 1;
        Assert.True(ours.Length >= capacity, $"GetBuffer returned {ours.Length} bytes for a capacity of {capacity}.");
        Assert.Equal(capacity, stream.Capacity);
    }

    [Theory]
    [MemberData(nameof(ZeroOnReturn))]
    public void WritingTheStreamsOwnBufferIntoItWhileItGrowsCopiesTheBytes(bool zeroOnReturn)
    {
        byte[] data = new byte[3000];
        new Random(3).NextBytes(data);

        using var reference = new MemoryStream();
        reference.Write(data);
        reference.Write(reference.GetBuffer(), 0, (int)reference.Length);

        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = 1024, TrimmingEnabled = false, ZeroOnReturn = zeroOnReturn });
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(data);
            stream.Write(stream.GetBuffer(), 0, (int)stream.Length);
            Assert.Equal(reference.ToArray(), stream.ToArray());
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void ABufferOutgrownByWritesStaysTheStreamsUntilDispose()
    {
        PooledStreamManager manager = Manager();
        using PooledStream a = manager.GetStream();
        Fill(a, BlockSize + 1, 0x11);
        byte[] first = a.GetBuffer();
        Fill(a, 4 * BlockSize, 0x11);
        Assert.NotSame(first, a.GetBuffer());
        using (PooledStream b = manager.GetStream())
        {
            Fill(b, first.Length, 0xEE);
            _ = b.GetBuffer();
        }

        Assert.All(first.AsSpan(0, BlockSize + 1).ToArray(), b => Assert.Equal(0x11, b));
    }

    [Fact]
    public void AStreamDisposedDuringACopyThatNeverEndsHasItsStorageCountedAsDroppedOnceCollected()
    {
        const int Blocks = 20;
        PooledStreamManager manager = Manager();
        StartACopyThatNeverEndsAndDispose(manager, Blocks);

        // The copy holds the stream's claim, so Dispose left the blocks to it; it never finishes, and is collected with
        // the stream and the destination.
        Assert.Equal(Blocks, manager.GetStatistics().Outstanding);
        Finalization.WaitUntil(() => manager.GetStatistics().Outstanding == 0, () => manager.GetStatistics().ToString());
        Assert.Equal(Blocks, manager.GetStatistics().Dropped);
        Assert.Equal(0, manager.BlockBytesInUse);
    }

    [Fact]
    public void AStreamNeverDisposedHasItsStorageCountedAsDroppedOnceCollected()
    {
        const int Blocks = 3;
        PooledStreamManager manager = Manager();
        WriteAndForget(manager, Blocks);

        Assert.Equal(Blocks, manager.GetStatistics().Outstanding);
        Finalization.WaitUntil(() => manager.GetStatistics().Outstanding == 0, () => manager.GetStatistics().ToString());
        Assert.Equal(Blocks, manager.GetStatistics().Dropped);
        Assert.Equal(0, manager.BlockBytesInUse);
    }

    /// <summary>Starts a copy of a stream of <paramref name="blocks"/> blocks into a destination that never completes a write, disposes the stream and drops them all.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void StartACopyThatNeverEndsAndDispose(PooledStreamManager manager, int blocks)
    {
        PooledStream stream = manager.GetStream();
        stream.Write(new byte[blocks * BlockSize]);
        stream.Position = 0;
        Task copy = stream.CopyToAsync(new NeverEndingStream());
        stream.Dispose();
        Assert.False(copy.IsCompleted);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteAndForget(PooledStreamManager manager, int blocks) =>
        manager.GetStream().Write(new byte[blocks * BlockSize]);

    /// <summary>A destination whose asynchronous writes never complete (nothing can complete them).</summary>
    private sealed class NeverEndingStream : Stream
    {
        public override bool CanRead => false;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
            new(new TaskCompletionSource().Task);
    }
}
