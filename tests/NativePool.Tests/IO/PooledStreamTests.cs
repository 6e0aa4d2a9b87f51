using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.IO;

namespace NativePool.Tests.IO;

/// <summary>What <see cref="PooledStream"/> adds to <see cref="MemoryStream"/>: pooled blocks, the buffer and sequence views, the buffer writer, the manager's options.</summary>
public class PooledStreamTests
{
    private const int BlockSize = 1024;

    private static PooledStreamManager Manager(bool zeroOnReturn = false, string? name = null) =>
        PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = BlockSize, TrimmingEnabled = false, ZeroOnReturn = zeroOnReturn, Name = name });

    private static byte[] Pattern(int length)
    {
        var bytes = new byte[length];
        new Random(length).NextBytes(bytes);
        return bytes;
    }

    [Fact]
    public void DisposingGivesEveryBlockBackAndTheNextStreamReusesThem()
    {
        PooledStreamManager manager = Manager();
        byte[] first;
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(Pattern(5 * BlockSize));
            Assert.Equal(5 * BlockSize, stream.Capacity);
            Assert.Equal(5, manager.GetStatistics().Outstanding);
            first = stream.GetReadOnlySequence().First.ToArray();
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
        long allocated = manager.GetStatistics().Allocated;
        using (PooledStream again = manager.GetStream())
        {
            again.Write(Pattern(5 * BlockSize));
        }

        Assert.Equal(allocated, manager.GetStatistics().Allocated);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void GetBufferOfSeveralBlocksMovesTheContentsIntoOneBufferAndKeepsThem()
    {
        PooledStreamManager manager = Manager();
        using PooledStream stream = manager.GetStream();
        byte[] data = Pattern((3 * BlockSize) + 100);
        stream.Write(data);
        byte[] buffer = stream.GetBuffer();
        Assert.True(buffer.Length >= data.Length);
        Assert.Equal(data, buffer.AsSpan(0, data.Length).ToArray());

        // The four blocks stay the stream's until Dispose (a sequence taken before may still read them), beside the buffer.
        Assert.Equal(5, manager.GetStatistics().Outstanding);
        Assert.Same(buffer, stream.GetBuffer());

        // Growing past the buffer moves to the next size class, keeping the contents; the outgrown buffer is kept too.
        stream.Write(Pattern(8 * BlockSize));
        Assert.Equal(data, stream.GetBuffer().AsSpan(0, data.Length).ToArray());
        Assert.Equal(6, manager.GetStatistics().Outstanding);
        stream.Dispose();
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void GetBufferOfOneBlockIsTheBlockItself()
    {
        using PooledStream stream = Manager().GetStream();
        Assert.Empty(stream.GetBuffer());
        stream.Write(Pattern(10));
        Assert.Equal(BlockSize, stream.GetBuffer().Length);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(BlockSize)]
    [InlineData(BlockSize + 1)]
    [InlineData((4 * BlockSize) - 3)]
    public void GetReadOnlySequenceSpansTheBlocksWithoutCopying(int length)
    {
        using PooledStream stream = Manager().GetStream();
        byte[] data = Pattern(length);
        stream.Write(data);
        ReadOnlySequence<byte> sequence = stream.GetReadOnlySequence();
        Assert.Equal(length, sequence.Length);
        Assert.Equal(data, sequence.ToArray());
        Assert.Equal(length <= BlockSize, sequence.IsSingleSegment);

        // In place: the stream still holds its blocks only, and the segments are those blocks.
        Assert.Equal((length + BlockSize - 1) / BlockSize, stream.Manager.GetStatistics().Outstanding);
        Assert.All(length == 0 ? [] : EnumerateSegments(sequence), segment => Assert.Equal(BlockSize, segment.Array!.Length));
        if (length > 0)
        {
            Assert.Same(stream.GetBuffer(), MemoryMarshal.TryGetArray(stream.GetReadOnlySequence().First, out ArraySegment<byte> first) ? first.Array : null);
        }
    }

    [Fact]
    public void TheBufferWriterWritesAtThePositionAcrossBlocks()
    {
        using PooledStream stream = Manager().GetStream();
        var oracle = new MemoryStream();
        var random = new Random(5);
        for (int i = 0; i < 200; i++)
        {
            int hint = random.Next(0, 3 * BlockSize);
            Span<byte> span = stream.GetSpan(hint);
            Assert.True(span.Length >= Math.Max(hint, 1));
            int count = random.Next(0, Math.Min(span.Length, hint + 1) + 1);
            random.NextBytes(span[..count]);
            oracle.Write(span[..count]);
            stream.Advance(count);
        }

        Assert.Equal(oracle.ToArray(), stream.ToArray());
        Assert.Equal(oracle.Position, stream.Position);
    }

    [Fact]
    public void TheBufferWriterRejectsBadCounts()
    {
        using PooledStream stream = Manager().GetStream();
        Assert.Throws<InvalidOperationException>(() => stream.Advance(1));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.GetSpan(-1));
        int length = stream.GetMemory(10).Length;
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Advance(length + 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Advance(-1));
        stream.Advance(3);
        Assert.Equal(3, stream.Length);
    }

    [Fact]
    public void ZeroOnReturnClearsEveryByteTheStreamWrote()
    {
        PooledStreamManager manager = Manager(zeroOnReturn: true);
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(Pattern(3 * BlockSize));
            stream.SetLength(10);
        }

        using PooledStream next = manager.GetStream(3 * BlockSize);
        next.SetLength(3 * BlockSize);
        Assert.All(next.GetReadOnlySequence().ToArray(), b => Assert.Equal(0, b));
    }

    [Fact]
    public void ABufferPastTheLargestSizeClassIsExactAndDropped()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = BlockSize, MaximumBufferSize = 4 * BlockSize, TrimmingEnabled = false });
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(Pattern((6 * BlockSize) + 1));

            // At least the capacity (seven blocks), exact: no size class is that long.
            Assert.Equal(7 * BlockSize, stream.GetBuffer().Length);
        }

        PoolStatistics statistics = manager.GetStatistics();
        Assert.Equal(0, statistics.Outstanding);
        Assert.Equal(1, statistics.Dropped);
    }

    [Fact]
    public void ToArrayOfALargeStreamRaisesTheCopyEvent()
    {
        string name = "stream-copy-" + Guid.NewGuid().ToString("N");
        PooledStreamManager manager = Manager(name: name);
        using var listener = new PoolEventListener(name);
        using PooledStream small = manager.GetStream(Pattern(1000));
        using PooledStream large = manager.GetStream(Pattern(100_000));
        Assert.Equal(1000, small.ToArray().Length);
        Assert.Equal(100_000, large.ToArray().Length);
        Assert.Equal([100_000], listener.Payloads("StreamCopiedToArray", "length").Select(Convert.ToInt32));
    }

    [Fact]
    public void ASecondDisposeRaisesTheDoubleReturnEventAndNothingElse()
    {
        string name = "stream-double-" + Guid.NewGuid().ToString("N");
        PooledStreamManager manager = Manager(name: name);
        using var listener = new PoolEventListener(name);
        PooledStream stream = manager.GetStream(Pattern(3000));
        stream.Dispose();
        stream.Dispose();
        Assert.Equal(1, listener.Count("DoubleReturn"));
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void AGuardedManagerThrowsOnASecondDispose()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { Guarded = true, TrimmingEnabled = false });
        PooledStream stream = manager.GetStream(Pattern(10));
        stream.Dispose();
        Assert.Throws<InvalidOperationException>(() => stream.Dispose());
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void AGuardedManagerReportsASecondDisposeWhenAskedTo()
    {
        var reports = new List<PoolMisuse>();
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            Guarded = true,
            MisusePolicy = PoolMisusePolicy.Report,
            OnMisuse = reports.Add,
            TrimmingEnabled = false,
            Name = "reporting streams",
        });
        PooledStream stream = manager.GetStream();
        stream.Dispose();
        stream.Dispose();
        PoolMisuse misuse = Assert.Single(reports);
        Assert.Equal(PoolMisuseKind.DoubleReturn, misuse.Kind);
        Assert.Equal("reporting streams", misuse.PoolName);
    }

    [Fact]
    public void LeakTrackingNamesWhereTheStreamsNeverDisposedWereCreated()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { TrackLeaks = true, TrimmingEnabled = false });
        PooledStream leaked = CreateLeak(manager);
        manager.GetStream().Dispose();
        StackTrace stack = Assert.Single(manager.GetLeaks());
        Assert.Contains(nameof(CreateLeak), stack.ToString());
        Assert.Equal(nameof(CreateLeak), stack.GetFrame(0)?.GetMethod()?.Name); // The creator's frame first: no library frame above it.
        leaked.Dispose();
        Assert.Empty(manager.GetLeaks());
    }

    [Fact]
    public void AnUntrackedManagerReportsNoLeaks()
    {
        PooledStreamManager manager = Manager();
        Assert.False(manager.IsTracking);
        _ = manager.GetStream();
        Assert.Empty(manager.GetLeaks());
    }

    [Theory]
    [InlineData(nameof(PooledStreamManagerOptions.BlockSize), 1000)]
    [InlineData(nameof(PooledStreamManagerOptions.BlockSize), 512)]
    [InlineData(nameof(PooledStreamManagerOptions.MaximumBufferSize), 1024)]
    [InlineData(nameof(PooledStreamManagerOptions.MaximumBufferSize), 3 << 20)]
    [InlineData(nameof(PooledStreamManagerOptions.MisusePolicy), 9)]
    public void ABadOptionThrowsNamingIt(string option, int value)
    {
        var options = new PooledStreamManagerOptions();
        typeof(PooledStreamManagerOptions).GetProperty(option)!.SetValue(options, option == nameof(PooledStreamManagerOptions.MisusePolicy) ? (PoolMisusePolicy)value : value);
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => PooledStreamManager.Create(options));
        Assert.Equal(option, exception.ParamName);
        Assert.Throws<ArgumentNullException>(() => PooledStreamManager.Create(null!));
    }

    [Fact]
    public void GetStreamChecksItsCapacityAndCopiesItsContents()
    {
        PooledStreamManager manager = Manager();
        Assert.Throws<ArgumentOutOfRangeException>(() => manager.GetStream(-1));
        using PooledStream sized = manager.GetStream(3000);
        Assert.Equal(3 * BlockSize, sized.Capacity);
        Assert.Equal(0, sized.Length);
        byte[] data = Pattern(2000);
        using PooledStream copy = manager.GetStream(data);
        Assert.Equal(0, copy.Position);
        Assert.Equal(data, copy.ToArray());
    }

    [Fact]
    public void TheSharedManagerHasTheDefaultShape()
    {
        Assert.Equal(PooledStreamManagerOptions.DefaultBlockSize, PooledStreamManager.Shared.BlockSize);
        Assert.Equal(PooledStreamManagerOptions.DefaultMaximumBufferSize, PooledStreamManager.Shared.MaximumBufferSize);
        Assert.Equal("PooledStreamManager.Shared", PooledStreamManager.Shared.Name);
        using PooledStream stream = PooledStreamManager.Shared.GetStream();
        Assert.Same(PooledStreamManager.Shared, stream.Manager);
    }

    [Fact]
    public void IdleBlocksAreTrimmedAndCountedAsAStreamPool()
    {
        PooledStreamManager manager = Manager();
        Assert.Equal("stream", manager.Buffers.Engine.Kind);
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(Pattern(4 * BlockSize));
        }

        Assert.True(manager.GetStatistics().Pooled > 0);
        Assert.True(manager.Clear() > 0);
        PoolStatistics statistics = manager.GetStatistics();
        Assert.Equal(0, statistics.Pooled);
        Assert.Equal(0, statistics.Outstanding);
    }

    private static List<ArraySegment<byte>> EnumerateSegments(ReadOnlySequence<byte> sequence)
    {
        var segments = new List<ArraySegment<byte>>();
        foreach (ReadOnlyMemory<byte> memory in sequence)
        {
            Assert.True(MemoryMarshal.TryGetArray(memory, out ArraySegment<byte> segment));
            segments.Add(segment);
        }

        return segments;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static PooledStream CreateLeak(PooledStreamManager manager) => manager.GetStream();
}
