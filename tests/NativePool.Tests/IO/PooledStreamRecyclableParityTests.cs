using System.Collections.Concurrent;
using System.IO;
using Microsoft.IO;

namespace NativePool.Tests.IO;

/// <summary>The RecyclableMemoryStream members of <see cref="PooledStream"/> and its manager, run step by step beside RecyclableMemoryStream (and <see cref="ArrayBufferWriter{T}"/>) as the reference.</summary>
public class PooledStreamRecyclableParityTests
{
    private const int BlockSize = 1024;

    /// <summary>Three blocks and a part: reads and copies cross block boundaries.</summary>
    private const int DataLength = (3 * BlockSize) + 100;

    /// <summary>The position the stream is left at before the safe reads: they must not move it.</summary>
    private const long ParkedPosition = 17;

    /// <summary>Where each safe read starts and how many bytes it asks for: inside a block, across blocks, at and past the end, nothing.</summary>
    private static readonly (long Start, int Count)[] s_readSteps =
    [
        (0, 10),
        (BlockSize - 4, 10),
        (5, 2500),
        (DataLength - 3, 10),
        (DataLength, 10),
        (DataLength + 900, 10),
        (100, 0),
    ];

    /// <summary>Where each <c>SafeReadByte</c> reads: the first byte, both sides of block boundaries, the last byte, the end.</summary>
    private static readonly long[] s_byteSteps = [0, BlockSize - 1, BlockSize, (2 * BlockSize) + 1, DataLength - 1, DataLength];

    private delegate int SafeReadArray(byte[] buffer, int offset, int count, ref long streamPosition);

    private delegate int SafeReadSpan(Span<byte> buffer, ref long streamPosition);

    private delegate int SafeReadOne(ref long streamPosition);

    private static string UniqueName() => "parity-" + Guid.NewGuid().ToString("N");

    private static PooledStreamManager Manager(long maximumStreamCapacity = 0, bool throwOnToArray = false, string? name = null) =>
        PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            BlockSize = BlockSize,
            TrimmingEnabled = false,
            MaximumStreamCapacity = maximumStreamCapacity,
            ThrowExceptionOnToArray = throwOnToArray,
            Name = name ?? UniqueName(),
        });

    // RecyclableMemoryStream's MaximumStreamCapacity is set only where its over-capacity path is compared (it throws
    // OutOfMemoryException there): see OptionsChangedAfterCreate… here and PooledStreamEventTests.
    private static RecyclableMemoryStreamManager Recyclable(bool throwOnToArray = false) =>
        new(new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize, ThrowExceptionOnToArray = throwOnToArray });

    /// <summary>The id in a stream's <c>ToString</c> (RecyclableMemoryStream keeps its <c>Id</c> internal).</summary>
    private static string IdIn(Stream stream)
    {
        string text = stream.ToString()!;
        int start = text.IndexOf("Id = ", StringComparison.Ordinal) + "Id = ".Length;
        return text[start..text.IndexOf(',', start)];
    }

    /// <summary>The tag in a stream's <c>ToString</c> (RecyclableMemoryStream keeps its <c>Tag</c> internal).</summary>
    private static string TagIn(Stream stream)
    {
        string text = stream.ToString()!;
        int start = text.IndexOf("Tag = ", StringComparison.Ordinal) + "Tag = ".Length;
        return text[start..text.IndexOf(", Length = ", start, StringComparison.Ordinal)];
    }

    private static byte[] Pattern(int length)
    {
        var bytes = new byte[length];
        new Random(length).NextBytes(bytes);
        return bytes;
    }

    /// <summary>Writes <paramref name="data"/> into <paramref name="stream"/> and parks the position at <see cref="ParkedPosition"/>.</summary>
    private static void Prepare(Stream stream, byte[] data)
    {
        stream.Write(data);
        stream.Position = ParkedPosition;
    }

    private static List<(int Read, long MovedTo, string Bytes, long Position)> SafeReadsIntoArrays(Stream stream, SafeReadArray read)
    {
        var results = new List<(int, long, string, long)>();
        foreach ((long start, int count) in s_readSteps)
        {
            var buffer = new byte[count + 4];
            long at = start;
            int n = read(buffer, 2, count, ref at);
            results.Add((n, at, Convert.ToHexString(buffer), stream.Position));
        }

        return results;
    }

    private static List<(int Read, long MovedTo, string Bytes, long Position)> SafeReadsIntoSpans(Stream stream, SafeReadSpan read)
    {
        var results = new List<(int, long, string, long)>();
        foreach ((long start, int count) in s_readSteps)
        {
            var buffer = new byte[count + 4];
            long at = start;
            int n = read(buffer.AsSpan(2, count), ref at);
            results.Add((n, at, Convert.ToHexString(buffer), stream.Position));
        }

        return results;
    }

    /// <summary>What each of <see cref="s_readSteps"/> must give on a stream holding <paramref name="data"/>.</summary>
    private static List<(int Read, long MovedTo, string Bytes, long Position)> ExpectedSafeReads(byte[] data)
    {
        var results = new List<(int, long, string, long)>();
        foreach ((long start, int count) in s_readSteps)
        {
            var buffer = new byte[count + 4];
            int n = (int)Math.Clamp(data.Length - start, 0, count);
            data.AsSpan((int)Math.Min(start, data.Length), n).CopyTo(buffer.AsSpan(2));
            results.Add((n, start + n, Convert.ToHexString(buffer), ParkedPosition));
        }

        return results;
    }

    private static List<(int Value, long MovedTo, long Position)> SafeReadBytes(Stream stream, SafeReadOne read)
    {
        var results = new List<(int, long, long)>();
        foreach (long start in s_byteSteps)
        {
            long at = start;
            int value = read(ref at);
            results.Add((value, at, stream.Position));
        }

        return results;
    }

    /// <summary>
    /// Reads the whole stream on four threads at once, each with its own position, many times, and returns what went
    /// wrong (nothing when every thread read exactly <paramref name="data"/> every time).
    /// </summary>
    private static List<string> ReadInParallel(byte[] data, SafeReadSpan readSpan, SafeReadArray readArray, SafeReadOne readByte)
    {
        const int ThreadCount = 4;
        const int Rounds = 200;
        var failures = new ConcurrentQueue<string>();
        var threads = new Thread[ThreadCount];
        for (int t = 0; t < ThreadCount; t++)
        {
            int index = t;
            threads[t] = new Thread(() =>
            {
                try
                {
                    // A chunk size per thread that does not divide the block size: reads land on every offset.
                    int chunk = 97 + (index * 211);
                    var copy = new byte[data.Length];
                    for (int round = 0; round < Rounds; round++)
                    {
                        Array.Clear(copy);
                        long position = 0;
                        int filled = 0;
                        while (true)
                        {
                            int n = (round % 3) switch
                            {
                                0 => readSpan(copy.AsSpan(filled, Math.Min(chunk, copy.Length - filled)), ref position),
                                1 => readArray(copy, filled, Math.Min(chunk, copy.Length - filled), ref position),
                                _ => ReadOneByte(copy, filled, readByte, ref position),
                            };
                            if (n == 0)
                            {
                                break;
                            }

                            filled += n;
                        }

                        if (filled != data.Length || position != data.Length || !copy.AsSpan().SequenceEqual(data))
                        {
                            failures.Enqueue($"thread {index}, round {round}: read {filled} bytes to position {position}, equal: {copy.AsSpan().SequenceEqual(data)}");
                            return;
                        }
                    }
                }
                catch (Exception exception)
                {
                    failures.Enqueue($"thread {index}: {exception}");
                }
            });
        }

        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        foreach (Thread thread in threads)
        {
            // A hang guard, not a timing assertion: the reads take milliseconds.
            if (!thread.Join(TimeSpan.FromMinutes(2)))
            {
                failures.Enqueue($"thread {thread.ManagedThreadId} did not finish within two minutes");
            }
        }

        return [.. failures];
    }

    private static int ReadOneByte(byte[] copy, int filled, SafeReadOne readByte, ref long position)
    {
        int value = readByte(ref position);
        if (value < 0)
        {
            return 0;
        }

        copy[filled] = (byte)value;
        return 1;
    }

    /// <summary>The four WriteTo overloads, each into a fresh target, as hex.</summary>
    private static List<string> WriteToResults(
        Action<byte[]> whole,
        Action<byte[], long, long> range,
        Action<byte[], long, long, int> rangeAt,
        Action<Stream, long, long> toStream)
    {
        var results = new List<string>();
        var target = new byte[DataLength + 10];
        whole(target);
        results.Add(Convert.ToHexString(target));

        target = new byte[DataLength + 10];
        range(target, BlockSize - 3, 2000);
        results.Add(Convert.ToHexString(target));

        target = new byte[DataLength + 10];
        rangeAt(target, 5, BlockSize + 7, 9);
        results.Add(Convert.ToHexString(target));

        target = new byte[DataLength + 10];
        rangeAt(target, DataLength, 0, 3);
        results.Add(Convert.ToHexString(target));

        using var destination = new MemoryStream();
        destination.WriteByte(0xAB);
        toStream(destination, (2 * BlockSize) - 1, 700);
        results.Add(Convert.ToHexString(destination.ToArray()));
        return results;
    }

    private static void AssertWriteToRangeErrors(
        Action<byte[], long, long> range,
        Action<byte[], long, long, int> rangeAt,
        Action<Stream, long, long> toStream,
        Action<byte[]> whole)
    {
        var target = new byte[DataLength + 10];
        using var destination = new MemoryStream();

        // The offset past the end, negative, or a range running past the end.
        Assert.Throws<ArgumentOutOfRangeException>(() => range(target, DataLength + 1, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => range(target, -1, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => range(target, 10, DataLength));
        Assert.Throws<ArgumentOutOfRangeException>(() => toStream(destination, DataLength + 1, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => toStream(destination, -1, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => toStream(destination, 10, DataLength));

        // The target index negative, or the target too small.
        Assert.Throws<ArgumentOutOfRangeException>(() => rangeAt(target, 0, 10, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => rangeAt(new byte[15], 0, 10, 6));
        Assert.Throws<ArgumentOutOfRangeException>(() => range(new byte[5], 0, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => whole(new byte[DataLength - 1]));

        Assert.Equal(new byte[DataLength + 10], target);
        Assert.Equal(0, destination.Length);
    }

    [Fact]
    public void SafeReadIntoAnArrayReadsAtItsOwnPositionAndLeavesPositionAloneAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        List<(int, long, string, long)> expected = SafeReadsIntoArrays(reference, reference.SafeRead);
        List<(int, long, string, long)> actual = SafeReadsIntoArrays(stream, stream.SafeRead);

        Assert.Equal(ExpectedSafeReads(data), expected);
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void SafeReadIntoASpanReadsAtItsOwnPositionAndLeavesPositionAloneAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        List<(int, long, string, long)> expected = SafeReadsIntoSpans(reference, reference.SafeRead);
        List<(int, long, string, long)> actual = SafeReadsIntoSpans(stream, stream.SafeRead);

        Assert.Equal(ExpectedSafeReads(data), expected);
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void SafeReadByteReadsAtItsOwnPositionAndGivesMinusOneAtTheEndAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        List<(int, long, long)> expected = SafeReadBytes(reference, reference.SafeReadByte);
        List<(int, long, long)> actual = SafeReadBytes(stream, stream.SafeReadByte);

        Assert.Equal(s_byteSteps.Select(at => at < data.Length ? ((int)data[at], at + 1, ParkedPosition) : (-1, at, ParkedPosition)), expected);
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void SafeReadByteGivesMinusOnePastTheEndWhereRecyclableMemoryStreamReadsItsSpareCapacity()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        // A deliberate difference: RMS only checks for the exact end, so past it (within its capacity) it reads a byte
        // of its spare capacity and moves the position; ours gives -1 at or past the end, as its documentation says.
        long referenceAt = DataLength + 1;
        Assert.NotEqual(-1, reference.SafeReadByte(ref referenceAt));
        Assert.Equal(DataLength + 2, referenceAt);

        long at = DataLength + 1;
        Assert.Equal(-1, stream.SafeReadByte(ref at));
        Assert.Equal(DataLength + 1, at);
        at = long.MaxValue;
        Assert.Equal(-1, stream.SafeReadByte(ref at));
        Assert.Equal(long.MaxValue, at);
        Assert.Equal(ParkedPosition, stream.Position);
    }

    [Fact]
    public void SafeReadWithANegativePositionThrowsArgumentOutOfRangeExceptionAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);
        var buffer = new byte[10];

        long referenceAt = -1;
        Assert.Throws<ArgumentOutOfRangeException>(() => reference.SafeRead(buffer, 0, 10, ref referenceAt));
        Assert.Throws<ArgumentOutOfRangeException>(() => reference.SafeRead(buffer.AsSpan(), ref referenceAt));

        // RMS indexes its block list with the negative position: IndexOutOfRangeException, not a checked argument.
        Assert.Throws<IndexOutOfRangeException>(() => reference.SafeReadByte(ref referenceAt));

        long at = -1;
        Assert.Equal("streamPosition", Assert.Throws<ArgumentOutOfRangeException>(() => stream.SafeRead(buffer, 0, 10, ref at)).ParamName);
        Assert.Equal("streamPosition", Assert.Throws<ArgumentOutOfRangeException>(() => stream.SafeRead(buffer.AsSpan(), ref at)).ParamName);
        Assert.Equal("streamPosition", Assert.Throws<ArgumentOutOfRangeException>(() => stream.SafeReadByte(ref at)).ParamName);
        Assert.Equal(-1, at);
        Assert.Equal(ParkedPosition, stream.Position);
        Assert.Equal(new byte[10], buffer);
    }

    [Fact]
    public void ParallelSafeReadsOnFourThreadsEachReadTheExactBytesAsOnRecyclableMemoryStream()
    {
        byte[] data = Pattern((5 * BlockSize) + 77);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);
        Assert.True(stream.Capacity64 > BlockSize * 5L);

        Assert.Empty(ReadInParallel(data, reference.SafeRead, reference.SafeRead, reference.SafeReadByte));
        Assert.Empty(ReadInParallel(data, stream.SafeRead, stream.SafeRead, stream.SafeReadByte));

        Assert.Equal(ParkedPosition, stream.Position);
        Assert.Equal(data.Length, stream.Length);
        Assert.Equal(data, stream.ToArray());
    }

    [Fact]
    public void WriteToCopiesTheSameBytesAsRecyclableMemoryStreamAndLeavesThePositionAlone()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        List<string> expected = WriteToResults(reference.WriteTo, reference.WriteTo, reference.WriteTo, reference.WriteTo);
        List<string> actual = WriteToResults(stream.WriteTo, stream.WriteTo, stream.WriteTo, stream.WriteTo);

        var whole = new byte[DataLength + 10];
        data.CopyTo(whole, 0);
        Assert.Equal(Convert.ToHexString(whole), expected[0]);
        Assert.Equal("AB" + Convert.ToHexString(data, (2 * BlockSize) - 1, 700), expected[4]);
        Assert.Equal(expected, actual);
        Assert.Equal(ParkedPosition, reference.Position);
        Assert.Equal(ParkedPosition, stream.Position);
    }

    [Fact]
    public void WriteToWithARangeOutsideTheStreamOrTheTargetThrowsArgumentOutOfRangeExceptionAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        AssertWriteToRangeErrors(reference.WriteTo, reference.WriteTo, reference.WriteTo, reference.WriteTo);
        AssertWriteToRangeErrors(stream.WriteTo, stream.WriteTo, stream.WriteTo, stream.WriteTo);
        Assert.Equal(data, stream.ToArray());
        Assert.Equal(ParkedPosition, stream.Position);
    }

    [Fact]
    public void WriteToANullTargetThrowsArgumentNullExceptionAsRecyclableMemoryStreamDoes()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => reference.WriteTo((byte[])null!)).ParamName);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => reference.WriteTo((byte[])null!, 0, 1)).ParamName);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => reference.WriteTo((byte[])null!, 0, 1, 0)).ParamName);
        Assert.Equal("stream", Assert.Throws<ArgumentNullException>(() => reference.WriteTo((Stream)null!, 0, 1)).ParamName);

        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => stream.WriteTo((byte[])null!)).ParamName);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => stream.WriteTo((byte[])null!, 0, 1)).ParamName);
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => stream.WriteTo((byte[])null!, 0, 1, 0)).ParamName);
        Assert.Equal("stream", Assert.Throws<ArgumentNullException>(() => stream.WriteTo((Stream)null!, 0, 1)).ParamName);
    }

    [Fact]
    public void WriteToWithANegativeCountThrowsArgumentOutOfRangeExceptionWhereRecyclableMemoryStreamSilentlyCopiesNothing()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        Prepare(reference, data);
        using PooledStream stream = Manager().GetStream();
        Prepare(stream, data);

        // A deliberate difference: RMS accepts a negative count and copies nothing; ours rejects the range.
        var referenceTarget = new byte[20];
        using var referenceDestination = new MemoryStream();
        reference.WriteTo(referenceTarget, 0, -1);
        reference.WriteTo(referenceTarget, 0, -1, 0);
        reference.WriteTo(referenceDestination, 0, -1);
        Assert.Equal(new byte[20], referenceTarget);
        Assert.Equal(0, referenceDestination.Length);

        var target = new byte[20];
        using var destination = new MemoryStream();
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.WriteTo(target, 0, -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.WriteTo(target, 0, -1, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.WriteTo(destination, 0, -1));
        Assert.Equal(new byte[20], target);
        Assert.Equal(0, destination.Length);
    }

    [Fact]
    public void WritingSetLengthOrCapacityPastMaximumStreamCapacityThrowsIOExceptionAndLeavesTheStreamUnharmed()
    {
        const int Cap = 4 * BlockSize;
        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap);
        Assert.Equal(Cap, manager.MaximumStreamCapacity);
        byte[] data = Pattern(DataLength);
        PooledStream stream = manager.GetStream();
        Prepare(stream, data);

        stream.Position = data.Length;
        Assert.Throws<IOException>(() => stream.Write(new byte[Cap - data.Length + 1]));
        Assert.Throws<IOException>(() => stream.Write(new byte[Cap - data.Length + 1], 0, Cap - data.Length + 1));
        stream.Position = Cap;
        Assert.Throws<IOException>(() => stream.WriteByte(1));
        Assert.Throws<IOException>(() => stream.GetSpan(1));
        Assert.Throws<IOException>(() => stream.SetLength(Cap + 1));
        Assert.Throws<IOException>(() => stream.Capacity64 = Cap + 1);
        Assert.Throws<IOException>(() => stream.Capacity = Cap + 1);

        // Unharmed: the same length and contents, and writable up to the cap.
        Assert.Equal(data.Length, stream.Length);
        Assert.Equal(data, stream.ToArray());
        stream.Position = data.Length;
        byte[] rest = Pattern(Cap - data.Length);
        stream.Write(rest);
        Assert.Equal(Cap, stream.Length);
        Assert.Equal(data.Concat(rest), stream.ToArray());

        stream.Dispose();
        Assert.Equal(0, manager.GetStatistics().Outstanding);
        Assert.Equal(0, manager.BlockBytesInUse);
        Assert.Equal(0, manager.BufferBytesInUse);
    }

    [Fact]
    public void MaximumStreamCapacityHoldsWithinTheBlocksAlreadyRentedAsOnRecyclableMemoryStream()
    {
        // A cap that is not a whole number of blocks: the stream's third block reaches past it. RMS checks the cap on
        // every write, SetLength and Capacity whatever it has rented (checked outside this host: it throws); ours
        // documents "a write, SetLength or Capacity that would need more throws IOException".
        const int Cap = 3000;
        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap);
        byte[] data = Pattern(Cap);
        PooledStream stream = manager.GetStream();
        stream.Write(data);
        Assert.True(stream.Capacity64 > Cap);

        Assert.Throws<IOException>(() => stream.WriteByte(1));
        Assert.Throws<IOException>(() => stream.SetLength(Cap + 1));
        Assert.Throws<IOException>(() => stream.Capacity64 = Cap + 1);
        Assert.Equal(Cap, stream.Length);
        Assert.Equal(data, stream.ToArray());

        stream.Dispose();
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void GetStreamWithARequiredSizePastMaximumStreamCapacityThrowsIOExceptionAndReturnsEverything()
    {
        const int Cap = 4 * BlockSize;
        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap);

        Assert.Throws<IOException>(() => manager.GetStream("over", Cap + 1));
        Assert.Throws<IOException>(() => manager.GetStream("over", Cap + 1, asContiguousBuffer: true));
        Assert.Throws<IOException>(() => manager.GetStream("over", new byte[Cap + 1], 0, Cap + 1));
        Assert.Equal(0, manager.GetStatistics().Outstanding);

        using PooledStream atCap = manager.GetStream("at", Cap);
        Assert.True(atCap.Capacity64 >= Cap);
    }

    [Fact]
    public void ANegativeMaximumStreamCapacityIsOutOfRange()
    {
        var options = new PooledStreamManagerOptions { BlockSize = BlockSize, MaximumStreamCapacity = -1 };
        ArgumentOutOfRangeException exception = Assert.Throws<ArgumentOutOfRangeException>(() => PooledStreamManager.Create(options));
        Assert.Equal("MaximumStreamCapacity", exception.ParamName);
        Assert.Equal(0, Manager(maximumStreamCapacity: 0).MaximumStreamCapacity);
    }

    [Fact]
    public void ToArrayThrowsNotSupportedExceptionWithThrowExceptionOnToArrayAsRecyclableMemoryStreamDoesAndTheRestStillWorks()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable(throwOnToArray: true).GetStream();
        Prepare(reference, data);
        PooledStreamManager manager = Manager(throwOnToArray: true);
        Assert.True(manager.ThrowExceptionOnToArray);
        using PooledStream stream = manager.GetStream();
        Prepare(stream, data);

        Assert.Throws<NotSupportedException>(() => reference.ToArray());
        Assert.Throws<NotSupportedException>(() => stream.ToArray());

        foreach (MemoryStream s in new MemoryStream[] { reference, stream })
        {
            var read = new byte[data.Length];
            s.Position = 0;
            s.ReadExactly(read);
            Assert.Equal(data, read);

            using var copy = new MemoryStream();
            s.Position = 0;
            s.CopyTo(copy);
            Assert.Equal(data, copy.ToArray());

            using var written = new MemoryStream();
            s.WriteTo(written);
            Assert.Equal(data, written.ToArray());

            Assert.Equal(data, s.GetBuffer().AsSpan(0, data.Length).ToArray());
        }

        Assert.Equal(data, reference.GetReadOnlySequence().ToArray());
        Assert.Equal(data, stream.GetReadOnlySequence().ToArray());
    }

    [Fact]
    public void GetStreamWithATagNamesTheStreamAndIdsAreDistinctAndIncreasing()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        using RecyclableMemoryStream referenceFirst = recyclable.GetStream("tag");
        using RecyclableMemoryStream referenceSecond = recyclable.GetStream("tag");
        Assert.Contains(", Tag = tag,", referenceFirst.ToString(), StringComparison.Ordinal);
        Assert.NotEqual(IdIn(referenceFirst), IdIn(referenceSecond));

        PooledStreamManager manager = Manager();
        using PooledStream first = manager.GetStream("tag");
        using PooledStream second = manager.GetStream("tag");
        using PooledStream third = Manager().GetStream();
        Assert.Equal("tag", first.Tag);
        Assert.Equal("tag", second.Tag);
        Assert.Null(third.Tag);
        Assert.True(first.Id > 0);
        Assert.True(second.Id > first.Id);
        Assert.True(third.Id > second.Id);
    }

    [Fact]
    public void ToStringNamesTheIdTheTagAndTheLengthInRecyclableMemoryStreamsFormat()
    {
        // Under 1000 bytes: RMS formats the length with the culture's group separators ("N0"), ours invariantly.
        byte[] data = Pattern(321);
        using RecyclableMemoryStream reference = Recyclable().GetStream("tag");
        reference.Write(data);
        using PooledStream stream = Manager().GetStream("tag");
        stream.Write(data);

        string expected = reference.ToString();
        Assert.StartsWith("Id = ", expected, StringComparison.Ordinal);
        Assert.EndsWith(", Tag = tag, Length = 321 bytes", expected, StringComparison.Ordinal);

        string actual = stream.ToString();
        Assert.Matches(@"^Id = \d+, Tag = tag, Length = 321 bytes$", actual);
        Assert.Equal(FormattableString.Invariant($"Id = {stream.Id}, Tag = tag, Length = 321 bytes"), actual);
    }

    [Fact]
    public void ToStringAfterDisposeKeepsItsShapeWithALengthOfZeroWhereRecyclableMemoryStreamNamesTheFinalLength()
    {
        RecyclableMemoryStream reference = Recyclable().GetStream("tag");
        reference.Write(Pattern(321));
        reference.Dispose();
        Assert.Matches(@"^Disposed: Id = [0-9a-f-]+, Tag = tag, Final Length: 321 bytes$", reference.ToString());

        PooledStream stream = Manager().GetStream("tag");
        stream.Write(Pattern(321));
        stream.Dispose();
        Assert.Equal(FormattableString.Invariant($"Id = {stream.Id}, Tag = tag, Length = 0 bytes"), stream.ToString());
    }

    [Fact]
    public void ARangePastTheEndOfTheArrayThrowsArgumentOutOfRangeExceptionAsMemoryStreamWhereRecyclableMemoryStreamThrowsArgumentException()
    {
        var array = new byte[10];
        using var memoryStream = new MemoryStream();
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        using PooledStream stream = Manager().GetStream();
        long position = 0;

        Assert.Throws<ArgumentOutOfRangeException>(() => memoryStream.Write(array, 5, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => memoryStream.Read(array, 5, 10));

        Assert.IsType<ArgumentException>(Record.Exception(() => reference.Write(array, 5, 10)));
        Assert.IsType<ArgumentException>(Record.Exception(() => reference.Read(array, 5, 10)));
        Assert.IsType<ArgumentException>(Record.Exception(() => reference.SafeRead(array, 5, 10, ref position)));

        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Write(array, 5, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Read(array, 5, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.SafeRead(array, 5, 10, ref position));
    }

    [Fact]
    public void WritingPastTheEndAndGrowingZeroFillAsMemoryStreamWhereRecyclableMemoryStreamShowsAReusedBlocksOldBytes()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        Assert.True(BytesNeverWrittenThatAreNotZero(recyclable.GetStream(), recyclable.GetStream()) > 0);

        PooledStreamManager manager = Manager();
        Assert.Equal(0, BytesNeverWrittenThatAreNotZero(manager.GetStream(), manager.GetStream()));

        // The second stream reuses the first one's blocks: its gap and grown bytes were never written.
        static int BytesNeverWrittenThatAreNotZero(MemoryStream first, MemoryStream second)
        {
            first.Write(Enumerable.Repeat((byte)0xEE, 2 * BlockSize).ToArray());
            first.Dispose();
            using (second)
            {
                second.Position = 100;
                second.WriteByte(1);
                second.SetLength(BlockSize + 500);
                byte[] contents = second.ToArray();
                return contents.Count(b => b != 0) - 1;
            }
        }
    }

    [Fact]
    public void OptionsChangedAfterCreateChangeNothingWhereRecyclableMemoryStreamManagerReadsThemLive()
    {
        var referenceOptions = new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize };
        var recyclable = new RecyclableMemoryStreamManager(referenceOptions);
        referenceOptions.MaximumStreamCapacity = 2 * BlockSize;
        using (RecyclableMemoryStream reference = recyclable.GetStream())
        {
            Assert.Throws<OutOfMemoryException>(() => reference.Write(Pattern(4 * BlockSize)));
        }

        var options = new PooledStreamManagerOptions { BlockSize = BlockSize, TrimmingEnabled = false };
        PooledStreamManager manager = PooledStreamManager.Create(options);
        options.MaximumStreamCapacity = 2 * BlockSize;
        options.BlockSize = 2 * BlockSize;
        using PooledStream stream = manager.GetStream();
        stream.Write(Pattern(4 * BlockSize));
        Assert.Equal(4 * BlockSize, stream.Length);
        Assert.Equal(0, manager.MaximumStreamCapacity);
        Assert.Equal(BlockSize, manager.BlockSize);
    }

    [Fact]
    public void GetStreamWithARequiredSizeHasAtLeastThatCapacityAsRecyclableMemoryStreamDoes()
    {
        const long Size = (3 * BlockSize) + 5;
        using RecyclableMemoryStream reference = Recyclable().GetStream("sized", Size);
        using PooledStream stream = Manager().GetStream("sized", Size);

        Assert.True(reference.Capacity64 >= Size);
        Assert.True(stream.Capacity64 >= Size);
        Assert.Equal(0, stream.Length);
        Assert.Equal(0, stream.Position);
        Assert.Equal("sized", stream.Tag);
        Assert.Throws<ArgumentOutOfRangeException>(() => Manager().GetStream("sized", -1));
    }

    [Fact]
    public void GetStreamAsAContiguousBufferHandsOutOneBufferThatHoldsTheRequiredSizeWithoutGrowingAsRecyclableMemoryStreamDoes()
    {
        const int Size = (4 * BlockSize) + 300;
        byte[] data = Pattern(Size);
        using RecyclableMemoryStream reference = Recyclable().GetStream("contiguous", Size, asContiguousBuffer: true);
        PooledStreamManager manager = Manager();
        using PooledStream stream = manager.GetStream("contiguous", Size, asContiguousBuffer: true);

        foreach (MemoryStream s in new MemoryStream[] { reference, stream })
        {
            byte[] buffer = s.GetBuffer();
            Assert.True(buffer.Length >= Size);
            Assert.Same(buffer, s.GetBuffer());
            s.Write(data);
            Assert.Same(buffer, s.GetBuffer());
            Assert.Equal(data, buffer.AsSpan(0, Size).ToArray());
        }

        Assert.True(manager.BufferBytesInUse >= Size);
    }

    [Fact]
    public void GetStreamAsAContiguousBufferRentsTheBufferAndNoBlockAsRecyclableMemoryStreamDoes()
    {
        const int Size = (5 * BlockSize) + 300;
        RecyclableMemoryStreamManager recyclable = Recyclable();
        using RecyclableMemoryStream reference = recyclable.GetStream("contiguous", Size, asContiguousBuffer: true);
        Assert.Equal(0, recyclable.SmallPoolInUseSize);
        Assert.True(recyclable.LargePoolInUseSize >= Size);

        PooledStreamManager manager = Manager();
        using (PooledStream stream = manager.GetStream("contiguous", Size, asContiguousBuffer: true))
        {
            Assert.Equal(0, manager.BlockBytesInUse);
            Assert.Equal(stream.Capacity64, manager.BufferBytesInUse);
            Assert.True(stream.Capacity64 >= Size);
            Assert.Equal(1, manager.GetStatistics().Outstanding);
        }

        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void GetStreamAsAContiguousBufferLongerThanAnArrayIsOutOfRangeAndRentsNothing()
    {
        // RMS throws OutOfMemoryException for a contiguous buffer past Array.MaxLength; ours refuses the argument
        // before anything is rented (a block list of the same size would be gibibytes of blocks).
        PooledStreamManager manager = Manager();
        Assert.Equal(
            "requiredSize",
            Assert.Throws<ArgumentOutOfRangeException>(() => manager.GetStream("huge", Array.MaxLength + 1L, asContiguousBuffer: true)).ParamName);
        Assert.Equal(0, manager.GetStatistics().Allocated);
    }

    [Fact]
    public void GetStreamFromAnArrayCopiesItAndStartsAtPositionZeroAsRecyclableMemoryStreamDoes()
    {
        byte[] source = Pattern(DataLength);
        RecyclableMemoryStreamManager recyclable = Recyclable();
        PooledStreamManager manager = Manager();

        using RecyclableMemoryStream referenceRange = recyclable.GetStream("range", source, 7, 2500);
        using PooledStream range = manager.GetStream("range", source, 7, 2500);
        using RecyclableMemoryStream referenceWhole = recyclable.GetStream(source);
        using PooledStream whole = manager.GetStream(source);

        foreach ((MemoryStream s, byte[] expected) in new (MemoryStream, byte[])[]
        {
            (referenceRange, source.AsSpan(7, 2500).ToArray()),
            (range, source.AsSpan(7, 2500).ToArray()),
            (referenceWhole, source),
            (whole, source),
        })
        {
            Assert.Equal(0, s.Position);
            Assert.Equal(expected.Length, s.Length);
            var read = new byte[expected.Length];
            s.ReadExactly(read);
            Assert.Equal(expected, read);
        }

        Assert.Equal("range", range.Tag);
        Assert.Contains(", Tag = range,", referenceRange.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void GetStreamFromAnArrayKeepsACopyNotTheCallersArray()
    {
        byte[] source = Pattern(DataLength);
        byte[] original = (byte[])source.Clone();
        using RecyclableMemoryStream reference = Recyclable().GetStream("copy", source, 0, source.Length);
        using PooledStream stream = Manager().GetStream("copy", source, 0, source.Length);
        Array.Clear(source);

        Assert.Equal(original, reference.GetReadOnlySequence().ToArray());
        Assert.Equal(original, stream.GetReadOnlySequence().ToArray());
    }

    [Fact]
    public void GetStreamFromAnArrayWithABadRangeThrowsAsRecyclableMemoryStreamDoes()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        PooledStreamManager manager = Manager();
        var source = new byte[10];

        Assert.Equal("offset", Assert.Throws<ArgumentOutOfRangeException>(() => recyclable.GetStream("bad", source, -1, 1)).ParamName);
        Assert.Equal("count", Assert.Throws<ArgumentOutOfRangeException>(() => recyclable.GetStream("bad", source, 0, -1)).ParamName);
        Assert.Throws<ArgumentException>(() => recyclable.GetStream("bad", source, 5, 6));
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => recyclable.GetStream("bad", null!, 0, 0)).ParamName);

        Assert.Equal("offset", Assert.Throws<ArgumentOutOfRangeException>(() => manager.GetStream("bad", source, -1, 1)).ParamName);
        Assert.Equal("count", Assert.Throws<ArgumentOutOfRangeException>(() => manager.GetStream("bad", source, 0, -1)).ParamName);
        Assert.Throws<ArgumentException>(() => manager.GetStream("bad", source, 5, 6));
        Assert.Throws<ArgumentException>(() => manager.GetStream("bad", source, 11, 0));
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => manager.GetStream("bad", null!, 0, 0)).ParamName);

        // RMS's GetStream(byte[]) dereferences a null array (NullReferenceException); ours checks it.
        Assert.Equal("buffer", Assert.Throws<ArgumentNullException>(() => manager.GetStream((byte[])null!)).ParamName);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void AdvanceByZeroWithoutGetSpanIsAllowedAsOnArrayBufferWriter()
    {
        var writer = new ArrayBufferWriter<byte>();
        writer.Advance(0);
        Assert.Equal(0, writer.WrittenCount);

        using PooledStream stream = Manager().GetStream();
        stream.Advance(0);
        Assert.Equal(0, stream.Length);
        Assert.Equal(0, stream.Position);
    }

    [Fact]
    public void TwoAdvancesSharingOneGetSpanCommitBothAsOnArrayBufferWriter()
    {
        var writer = new ArrayBufferWriter<byte>();
        Span<byte> writerSpan = writer.GetSpan(10);
        for (int i = 0; i < 10; i++)
        {
            writerSpan[i] = (byte)(i + 1);
        }

        writer.Advance(2);
        writer.Advance(2);
        Assert.Equal(4, writer.WrittenCount);

        using PooledStream stream = Manager().GetStream();
        Span<byte> span = stream.GetSpan(10);
        for (int i = 0; i < 10; i++)
        {
            span[i] = (byte)(i + 1);
        }

        stream.Advance(2);
        stream.Advance(2);
        Assert.Equal(4, stream.Length);
        Assert.Equal(4, stream.Position);
        Assert.Equal(writer.WrittenSpan.ToArray(), stream.ToArray());
    }

    [Fact]
    public void AdvanceBeyondTheSpanThrowsArgumentOutOfRangeExceptionWhereArrayBufferWriterThrowsInvalidOperationException()
    {
        var writer = new ArrayBufferWriter<byte>();
        int writerLength = writer.GetSpan(10).Length;
        Assert.Throws<InvalidOperationException>(() => writer.Advance(writerLength + 1));
        Assert.Equal(0, writer.WrittenCount);

        using PooledStream stream = Manager().GetStream();
        int length = stream.GetSpan(10).Length;
        Assert.True(length >= 10);
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Advance(length + 1));
        Assert.Equal(0, stream.Length);

        // Sharing one span: the sum of the advances is bounded by what it handed out.
        stream.Advance(length - 1);
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Advance(2));
        Assert.Equal(length - 1, stream.Length);
    }

    [Fact]
    public void AdvanceWithoutGetSpanThrowsInvalidOperationExceptionWhereArrayBufferWriterCommitsWhatItsBufferHeld()
    {
        // A deliberate difference: ArrayBufferWriter commits whatever its buffer held; ours refuses, since that would
        // expose the bytes a pooled block's previous tenant left in it.
        var writer = new ArrayBufferWriter<byte>(16);
        writer.Advance(1);
        Assert.Equal(1, writer.WrittenCount);

        using PooledStream stream = Manager().GetStream();
        Assert.Throws<InvalidOperationException>(() => stream.Advance(1));
        Assert.Equal(0, stream.Length);

        // Also after a write, with no memory handed out since.
        stream.Write(Pattern(3));
        Assert.Throws<InvalidOperationException>(() => stream.Advance(1));
        Assert.Equal(3, stream.Length);
    }

    [Fact]
    public void AdvanceAfterAWriteThatFollowedGetSpanThrowsInvalidOperationExceptionAsDocumented()
    {
        // Advance documents InvalidOperationException for "a positive count with no memory handed out since the last
        // write", and GetSpan says to commit with Advance "before the next write": a Write in between voids the span.
        using PooledStream stream = Manager().GetStream();
        _ = stream.GetSpan(16);
        byte[] data = Pattern(3);
        stream.Write(data);

        Assert.Throws<InvalidOperationException>(() => stream.Advance(8));
        Assert.Equal(3, stream.Length);
        Assert.Equal(data, stream.ToArray());
    }

    [Fact]
    public void CapacityIsAtLeastTheLengthAsOnRecyclableMemoryStream()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        using PooledStream stream = Manager().GetStream();
        Assert.Equal(0, stream.Capacity64);

        foreach (MemoryStream s in new MemoryStream[] { reference, stream })
        {
            s.Write(data);
        }

        Assert.True(reference.Capacity64 >= reference.Length);
        Assert.True(stream.Capacity64 >= stream.Length);
        Assert.Equal(stream.Capacity64, stream.Capacity);

        stream.Capacity64 = 8 * BlockSize;
        Assert.True(stream.Capacity64 >= 8 * BlockSize);
        Assert.Equal(DataLength, stream.Length);
        Assert.Equal(data, stream.ToArray());
    }

    [Fact]
    public void SettingCapacityBelowTheLengthThrowsArgumentOutOfRangeExceptionWhereRecyclableMemoryStreamIgnoresIt()
    {
        byte[] data = Pattern(DataLength);
        using RecyclableMemoryStream reference = Recyclable().GetStream();
        reference.Write(data);
        using PooledStream stream = Manager().GetStream();
        stream.Write(data);

        // A deliberate difference: RMS ignores a capacity below the length; ours throws as MemoryStream does.
        long referenceCapacity = reference.Capacity64;
        reference.Capacity64 = 10;
        reference.Capacity = 10;
        Assert.Equal(referenceCapacity, reference.Capacity64);

        long capacity = stream.Capacity64;
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Capacity64 = DataLength - 1);
        Assert.Throws<ArgumentOutOfRangeException>(() => stream.Capacity = 10);
        Assert.Equal(capacity, stream.Capacity64);
        Assert.Equal(DataLength, stream.Length);
        Assert.Equal(data, stream.ToArray());

        stream.Capacity64 = DataLength;
        Assert.Equal(capacity, stream.Capacity64);
    }

    [Fact]
    public void StreamCreatedAndStreamDisposedAreRaisedOncePerStreamWithItsIdAndTagAsRecyclableMemoryStreamsEventsAre()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        var referenceCreated = new List<(Guid, string?)>();
        var referenceDisposed = new List<(Guid, string?)>();
        recyclable.StreamCreated += (_, e) => referenceCreated.Add((e.Id, e.Tag));
        recyclable.StreamDisposed += (_, e) => referenceDisposed.Add((e.Id, e.Tag));
        var referenceStreams = new[] { recyclable.GetStream("first"), recyclable.GetStream("second") };

        // Read before Dispose: a disposed RecyclableMemoryStream's ToString has another shape.
        List<(Guid, string?)> referenceNames = [.. referenceStreams.Select(s => (Guid.Parse(IdIn(s)), (string?)TagIn(s)))];
        Assert.Equal([(referenceNames[0].Item1, "first"), (referenceNames[1].Item1, "second")], referenceNames);
        foreach (RecyclableMemoryStream s in referenceStreams)
        {
            s.WriteByte(1);
            s.Dispose();
        }

        Assert.Equal(referenceNames, referenceCreated);
        Assert.Equal(referenceCreated, referenceDisposed);

        string name = UniqueName();
        using var listener = new PoolEventListener(name);
        PooledStreamManager manager = Manager(name: name);
        var streams = new[] { manager.GetStream("first"), manager.GetStream("second") };
        Assert.Equal(2, listener.Count("StreamCreated"));
        Assert.Equal(0, listener.Count("StreamDisposed"));
        foreach (PooledStream s in streams)
        {
            s.WriteByte(1);
            s.Dispose();
        }

        Assert.Equal(streams.Select(s => (object?)s.Id), listener.Payloads("StreamCreated", "streamId"));
        Assert.Equal(new object?[] { "first", "second" }, listener.Payloads("StreamCreated", "tag"));
        Assert.Equal(streams.Select(s => (object?)s.Id), listener.Payloads("StreamDisposed", "streamId"));
        Assert.Equal(new object?[] { "first", "second" }, listener.Payloads("StreamDisposed", "tag"));
        Assert.Equal(new object?[] { 1L, 1L }, listener.Payloads("StreamDisposed", "length"));
        Assert.Equal(0, listener.Count("StreamOverCapacity"));
    }

    [Fact]
    public void StreamOverCapacityNamesTheStreamTheRequestedAndTheMaximumCapacity()
    {
        const int Cap = 2 * BlockSize;
        string name = UniqueName();
        using var listener = new PoolEventListener(name);
        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap, name: name);
        using PooledStream stream = manager.GetStream("capped");
        stream.Write(Pattern(100));

        Assert.Throws<IOException>(() => stream.Write(Pattern(Cap)));
        Assert.Throws<IOException>(() => stream.SetLength(Cap + 5));

        Assert.Equal(2, listener.Count("StreamOverCapacity"));
        Assert.Equal(new object?[] { stream.Id, stream.Id }, listener.Payloads("StreamOverCapacity", "streamId"));
        Assert.Equal(new object?[] { "capped", "capped" }, listener.Payloads("StreamOverCapacity", "tag"));
        Assert.Equal(new object?[] { (long)Cap + 100, (long)Cap + 5 }, listener.Payloads("StreamOverCapacity", "requestedCapacity"));
        Assert.Equal(new object?[] { (long)Cap, (long)Cap }, listener.Payloads("StreamOverCapacity", "maximumCapacity"));
    }

    [Fact]
    public void TheManagerCountsBlockAndBufferBytesInUseAndFreeAsRecyclableMemoryStreamManagerDoes()
    {
        byte[] data = Pattern(3 * BlockSize);

        RecyclableMemoryStreamManager recyclable = Recyclable();
        RecyclableMemoryStream reference = recyclable.GetStream();
        reference.Write(data);
        Assert.Equal(3 * BlockSize, recyclable.SmallPoolInUseSize);
        Assert.Equal(0, recyclable.LargePoolInUseSize);
        _ = reference.GetBuffer();
        Assert.True(recyclable.LargePoolInUseSize >= 3 * BlockSize);
        reference.Dispose();
        Assert.Equal(0, recyclable.SmallPoolInUseSize);
        Assert.Equal(0, recyclable.LargePoolInUseSize);
        Assert.True(recyclable.SmallPoolFreeSize >= 3 * BlockSize);
        Assert.True(recyclable.LargePoolFreeSize >= 3 * BlockSize);

        PooledStreamManager manager = Manager();
        PooledStream stream = manager.GetStream();
        stream.Write(data);
        Assert.Equal(3 * BlockSize, manager.BlockBytesInUse);
        Assert.Equal(0, manager.BufferBytesInUse);
        Assert.Equal(0, manager.BlockBytesFree);
        _ = stream.GetBuffer();
        Assert.True(manager.BufferBytesInUse >= 3 * BlockSize);
        stream.Dispose();
        Assert.Equal(0, manager.BlockBytesInUse);
        Assert.Equal(0, manager.BufferBytesInUse);
        Assert.True(manager.BlockBytesFree >= 3 * BlockSize);
        Assert.True(manager.BufferBytesFree >= 3 * BlockSize);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }
}
