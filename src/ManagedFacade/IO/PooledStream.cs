using System;
using System.Buffers;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// A <see cref="MemoryStream"/> whose contents live in pooled, pinned blocks of a <see cref="PooledStreamManager"/>
/// instead of one growing array: writing never copies what was written before, and disposing gives every block back.
/// Get one from <see cref="PooledStreamManager.GetStream()"/>; dispose it when done.
/// </summary>
/// <remarks>
/// <para>
/// Contract: <see cref="MemoryStream"/>'s, member by member — reading, writing, seeking past the end (a later write
/// zero-fills the gap), <see cref="SetLength"/> (growing zero-fills, shrinking moves the position back), the argument
/// checks and their exception types, the asynchronous members (a cancelled token gives a cancelled task; other
/// failures a faulted one). Differences, all from the buffers going back to the pool: after <c>Dispose</c>,
/// <see cref="GetBuffer"/>, <see cref="ToArray"/> and <see cref="GetReadOnlySequence"/> throw
/// <see cref="ObjectDisposedException"/> and <see cref="TryGetBuffer"/> returns false; <see cref="Capacity"/> is a
/// whole number of blocks (or the buffer's size class), at least what was asked; the stream can always be written,
/// and a buffer from <see cref="GetBuffer"/> is valid only until the next write, <see cref="Capacity"/> change or
/// <c>Dispose</c>.
/// </para>
/// <para>
/// Storage. Up to the first <see cref="GetBuffer"/>, the contents are a list of blocks of
/// <see cref="PooledStreamManager.BlockSize"/> bytes. <see cref="GetBuffer"/> on a stream of more than one block moves
/// the contents into one buffer of the next power of two (a copy, once); from then on the stream grows that buffer.
/// <see cref="GetReadOnlySequence"/> and <see cref="CopyTo(Stream, int)"/> read the blocks in place.
/// </para>
/// <para>
/// Concurrency: one thread at a time, as for <see cref="MemoryStream"/>. <c>Dispose</c> alone may race with itself:
/// exactly one call gives the buffers back; a later one raises the <c>DoubleReturn</c> event (in guarded mode it is
/// misuse, handled per the manager's policy).
/// </para>
/// </remarks>
public sealed partial class PooledStream : MemoryStream, IBufferWriter<byte>
{
    private readonly PooledStreamManager _manager;
    private readonly int _blockShift;
    private readonly int _blockMask;

    /// <summary>The blocks (a pooled array of at least <see cref="_blockCount"/> entries), or null before the first block.</summary>
    private byte[]?[]? _blocks;
    private int _blockCount;

    /// <summary>The one contiguous buffer once <see cref="GetBuffer"/> asked for it; the blocks are gone then.</summary>
    private byte[]? _buffer;

    private int _length;
    private int _position;

    /// <summary>Bytes from the start of the storage that may have been written (zeroed on return when the manager zeroes).</summary>
    private int _dirty;

    /// <summary>1 once disposed.</summary>
    private int _disposed;

    internal PooledStream(PooledStreamManager manager)
    {
        _manager = manager;
        _blockShift = manager.BlockShift;
        _blockMask = manager.BlockSize - 1;
        manager.OnStreamCreated(this);
    }

    /// <summary>The manager the stream's buffers come from.</summary>
    public PooledStreamManager Manager => _manager;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanRead => _disposed == 0;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanSeek => _disposed == 0;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanWrite => _disposed == 0;

    /// <summary>The bytes in the stream.</summary>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override long Length
    {
        get
        {
            EnsureNotDisposed();
            return _length;
        }
    }

    /// <summary>The position of the next read or write; may be set past the end (a write there zero-fills the gap).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative or more than <see cref="int.MaxValue"/>.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override long Position
    {
        get
        {
            EnsureNotDisposed();
            return _position;
        }

        set
        {
            if (value < 0)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The position must not be negative.");
            }

            EnsureNotDisposed();
            if (value > int.MaxValue)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "A stream is at most int.MaxValue bytes long.");
            }

            _position = (int)value;
        }
    }

    /// <summary>
    /// The bytes the stream holds without renting more: a whole number of blocks, or the size of its contiguous buffer.
    /// Setting it rents at least that much; it never gives storage back before <c>Dispose</c>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value set is less than <see cref="Length"/>.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override int Capacity
    {
        get
        {
            EnsureNotDisposed();
            return (int)Math.Min(CurrentCapacity, int.MaxValue);
        }

        set
        {
            if (value < Length)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The capacity must not be less than the stream's length.");
            }

            EnsureCapacity(value);
        }
    }

    private long CurrentCapacity => _buffer is not null ? _buffer.Length : (long)_blockCount << _blockShift;

    /// <summary>Does nothing: the contents are in memory.</summary>
    public override void Flush()
    {
    }

    /// <summary>Reads up to <paramref name="count"/> bytes into <paramref name="buffer"/> from the position.</summary>
    /// <param name="buffer">The destination.</param>
    /// <param name="offset">Where in <paramref name="buffer"/> to start.</param>
    /// <param name="count">The most bytes to read.</param>
    /// <returns>The bytes read; 0 at or past the end.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> or <paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return Read(buffer.AsSpan(offset, count));
    }

    /// <summary>Reads up to <c>buffer.Length</c> bytes from the position.</summary>
    /// <param name="buffer">The destination.</param>
    /// <returns>The bytes read; 0 at or past the end.</returns>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override int Read(Span<byte> buffer)
    {
        EnsureNotDisposed();
        int count = Math.Min(buffer.Length, _length - _position);
        if (count <= 0)
        {
            return 0;
        }

        int position = _position;
        int done = 0;
        while (done < count)
        {
            Span<byte> segment = SegmentAt(position + done, count - done);
            segment.CopyTo(buffer.Slice(done));
            done += segment.Length;
        }

        _position = position + count;
        return count;
    }

    /// <summary>Reads one byte.</summary>
    /// <returns>The byte, or -1 at or past the end.</returns>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override int ReadByte()
    {
        EnsureNotDisposed();
        int position = _position;
        if (position >= _length)
        {
            return -1;
        }

        _position = position + 1;
        return SegmentAt(position, 1)[0];
    }

    /// <summary>Writes <paramref name="count"/> bytes of <paramref name="buffer"/> at the position.</summary>
    /// <param name="buffer">The source.</param>
    /// <param name="offset">Where in <paramref name="buffer"/> to start.</param>
    /// <param name="count">The bytes to write.</param>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> or <paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    /// <exception cref="IOException">The stream would be longer than <see cref="int.MaxValue"/> bytes.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override void Write(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        Write(new ReadOnlySpan<byte>(buffer, offset, count));
    }

    /// <summary>Writes <paramref name="buffer"/> at the position, zero-filling any gap past the end first.</summary>
    /// <param name="buffer">The source.</param>
    /// <exception cref="IOException">The stream would be longer than <see cref="int.MaxValue"/> bytes.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        EnsureNotDisposed();
        int position = _position;
        int end = PrepareWrite(position, buffer.Length);
        int done = 0;
        while (done < buffer.Length)
        {
            Span<byte> segment = SegmentAt(position + done, buffer.Length - done);
            buffer.Slice(done, segment.Length).CopyTo(segment);
            done += segment.Length;
        }

        CompleteWrite(end);
    }

    /// <summary>Writes one byte at the position.</summary>
    /// <param name="value">The byte.</param>
    /// <exception cref="IOException">The stream would be longer than <see cref="int.MaxValue"/> bytes.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override void WriteByte(byte value)
    {
        EnsureNotDisposed();
        int position = _position;
        int end = PrepareWrite(position, 1);
        SegmentAt(position, 1)[0] = value;
        CompleteWrite(end);
    }

    /// <summary>Moves the position; past the end is allowed.</summary>
    /// <param name="offset">The offset from <paramref name="loc"/>.</param>
    /// <param name="loc">Where the offset counts from.</param>
    /// <returns>The new position.</returns>
    /// <exception cref="ArgumentException"><paramref name="loc"/> is not a <see cref="SeekOrigin"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The position would be more than <see cref="int.MaxValue"/>.</exception>
    /// <exception cref="IOException">The position would be before the start.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override long Seek(long offset, SeekOrigin loc)
    {
        EnsureNotDisposed();
        int origin = loc switch
        {
            SeekOrigin.Begin => 0,
            SeekOrigin.Current => _position,
            SeekOrigin.End => _length,
            _ => InvalidSeekOrigin(),
        };

        if (offset > int.MaxValue - (long)origin)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(offset), "A stream is at most int.MaxValue bytes long.");
        }

        long position = origin + offset;
        if (position < 0)
        {
            ThrowHelper.ThrowIO("An attempt was made to move the position before the beginning of the stream.");
        }

        _position = (int)position;
        return position;
    }

    /// <summary>Sets the length: growing zero-fills the new bytes, shrinking moves a position past the new end back to it.</summary>
    /// <param name="value">The new length, 0 to <see cref="int.MaxValue"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative or more than <see cref="int.MaxValue"/>.</exception>
    /// <exception cref="NotSupportedException">The stream is disposed (it is no longer writable, as <see cref="MemoryStream"/> reports).</exception>
    public override void SetLength(long value)
    {
        if (value is < 0 or > int.MaxValue)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The length must be from 0 to int.MaxValue.");
        }

        if (_disposed != 0)
        {
            ThrowHelper.ThrowNotSupported("The stream does not support writing: it has been disposed.");
        }

        int length = (int)value;
        if (length > _length)
        {
            EnsureCapacity(length);
            ZeroRange(_length, length);
            _dirty = Math.Max(_dirty, length);
        }

        _length = length;
        if (_position > length)
        {
            _position = length;
        }
    }

    /// <summary>Gives the blocks and buffer back to the manager, once.</summary>
    /// <param name="disposing">True from <c>Dispose</c>.</param>
    protected override void Dispose(bool disposing)
    {
        // Interlocked: two threads may dispose the stream at once; only the one that sets the flag gives the buffers back.
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            _manager.OnDoubleDispose(this);
            return;
        }

        ReleaseStorage();
        _length = 0;
        _position = 0;
        _manager.OnStreamDisposed(this);
        base.Dispose(disposing);
    }

    /// <summary>Throws <see cref="ObjectDisposedException"/> once the stream is disposed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnsureNotDisposed()
    {
        if (_disposed != 0)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(PooledStream));
        }
    }

    /// <summary>Makes room for a write of <paramref name="count"/> bytes at <paramref name="position"/> and zero-fills a gap before it.</summary>
    /// <returns>The end of the write.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int PrepareWrite(int position, int count)
    {
        long end = (long)position + count;
        if (end > int.MaxValue)
        {
            ThrowHelper.ThrowIO("Stream was too long.");
        }

        if (end > CurrentCapacity)
        {
            EnsureCapacity((int)end);
        }

        if (position > _length)
        {
            ZeroRange(_length, position);
        }

        return (int)end;
    }

    /// <summary>Moves the position and the length past a write that ended at <paramref name="end"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CompleteWrite(int end)
    {
        _position = end;
        if (end > _length)
        {
            _length = end;
            if (end > _dirty)
            {
                _dirty = end;
            }
        }
    }

    /// <summary>The contiguous bytes of the storage from <paramref name="position"/> on, at most <paramref name="count"/> (and at least 1 when within the capacity).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> SegmentAt(int position, int count)
    {
        byte[] array = Locate(position, count, out int offset, out int length);
        return array.AsSpan(offset, length);
    }

    /// <summary>As <see cref="SegmentAt"/>, as an array segment (for array-only stream APIs).</summary>
    private ArraySegment<byte> ArraySegmentAt(int position, int count)
    {
        byte[] array = Locate(position, count, out int offset, out int length);
        return new ArraySegment<byte>(array, offset, length);
    }

    /// <summary>The array holding <paramref name="position"/>, and the contiguous run from there of at most <paramref name="count"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private byte[] Locate(int position, int count, out int offset, out int length)
    {
        if (_buffer is { } buffer)
        {
            offset = position;
            length = Math.Min(count, buffer.Length - position);
            return buffer;
        }

        offset = position & _blockMask;
        length = Math.Min(count, _blockMask + 1 - offset);
        return _blocks![position >> _blockShift]!;
    }

    /// <summary>Zero-fills the bytes from <paramref name="start"/> to <paramref name="end"/>, within the capacity.</summary>
    private void ZeroRange(int start, int end)
    {
        for (int position = start; position < end;)
        {
            Span<byte> segment = SegmentAt(position, end - position);
            segment.Clear();
            position += segment.Length;
        }
    }

    /// <summary>Rents storage until the capacity is at least <paramref name="capacity"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EnsureCapacity(int capacity)
    {
        EnsureNotDisposed();
        if (capacity <= CurrentCapacity)
        {
            return;
        }

        if (_buffer is not null)
        {
            GrowBuffer(capacity);
            return;
        }

        int needed = (int)(((long)capacity + _blockMask) >> _blockShift);
        if (_blocks is null || _blocks.Length < needed)
        {
            byte[]?[] blocks = StripedArrayPool<byte[]?>.Shared.Rent(Math.Max(needed, 4));
            if (_blocks is not null)
            {
                _blocks.AsSpan(0, _blockCount).CopyTo(blocks);
                StripedArrayPool<byte[]?>.Shared.Return(_blocks, clearArray: true);
            }

            _blocks = blocks;
        }

        while (_blockCount < needed)
        {
            _blocks[_blockCount++] = _manager.RentBlock();
        }
    }

    /// <summary>Moves the contents into a contiguous buffer of at least <paramref name="capacity"/> bytes (the blocks go back).</summary>
    private void GrowBuffer(int capacity)
    {
        byte[] buffer = _manager.RentBuffer(capacity);
        for (int position = 0; position < _length;)
        {
            Span<byte> segment = SegmentAt(position, _length - position);
            segment.CopyTo(buffer.AsSpan(position));
            position += segment.Length;
        }

        ReleaseStorage();
        _buffer = buffer;
        _dirty = _length;
    }

    /// <summary>Gives every block, the block list and the buffer back to the manager.</summary>
    private void ReleaseStorage()
    {
        int dirty = _dirty;
        _granted = -1;
        if (_pending is { } pending)
        {
            _pending = null;
            _manager.Return(pending, pending.Length);
        }

        if (_buffer is { } buffer)
        {
            _buffer = null;
            _manager.Return(buffer, dirty);
        }

        if (_blocks is { } blocks)
        {
            _blocks = null;
            int blockSize = _blockMask + 1;
            for (int i = 0; i < _blockCount; i++)
            {
                _manager.Return(blocks[i]!, dirty - (i * blockSize));
            }

            _blockCount = 0;
            StripedArrayPool<byte[]?>.Shared.Return(blocks, clearArray: true);
        }

        _dirty = 0;
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static int InvalidSeekOrigin()
    {
        ThrowHelper.ThrowArgument("loc", "Invalid seek origin.");
        return 0;
    }
}
