using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace NativePool;

/// <summary>The asynchronous members and the copies to other streams.</summary>
public sealed partial class PooledStream
{
    /// <summary>Reads synchronously and returns the result as a completed task (a cancelled one for a cancelled token).</summary>
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Reads synchronously and returns the result as a completed value task (a cancelled one for a cancelled token).</summary>
    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<int>(cancellationToken);
        }

        try
        {
            return new ValueTask<int>(Read(buffer.Span));
        }
        catch (Exception exception)
        {
            return ValueTask.FromException<int>(exception);
        }
    }

    /// <summary>Writes synchronously and returns a completed task (a cancelled one for a cancelled token).</summary>
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Writes synchronously and returns a completed value task (a cancelled one for a cancelled token).</summary>
    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled(cancellationToken);
        }

        try
        {
            Write(buffer.Span);
            return ValueTask.CompletedTask;
        }
        catch (Exception exception)
        {
            return ValueTask.FromException(exception);
        }
    }

    /// <summary>Does nothing, as <see cref="Flush"/>; a cancelled token gives a cancelled task.</summary>
    public override Task FlushAsync(CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;

    /// <summary>Writes the bytes from the position to the end into <paramref name="destination"/>, block by block with no intermediate buffer, and moves the position to the end.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="destination"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="bufferSize"/> is not positive.</exception>
    /// <exception cref="NotSupportedException"><paramref name="destination"/> cannot be written.</exception>
    /// <exception cref="ObjectDisposedException">This stream or <paramref name="destination"/> is disposed.</exception>
    public override void CopyTo(Stream destination, int bufferSize)
    {
        ValidateCopyToArguments(destination, bufferSize);
        if (ReferenceEquals(destination, this))
        {
            CopyToSelf();
            return;
        }

        using ReaderClaim claim = EnterReader();
        long start = _position;
        long end = Math.Max(start, _length);
        _position = end;
        WriteRange(destination, start, end);
    }

    /// <summary>Writes the bytes from the position to the end into <paramref name="destination"/> asynchronously, block by block, and moves the position to the end.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="destination"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="bufferSize"/> is not positive.</exception>
    /// <exception cref="NotSupportedException"><paramref name="destination"/> cannot be written.</exception>
    /// <exception cref="ObjectDisposedException">This stream or <paramref name="destination"/> is disposed.</exception>
    /// <remarks>The copy reads the blocks in place under a reader's claim until the task completes: a write meanwhile throws <see cref="InvalidOperationException"/>, and a <c>Dispose</c> meanwhile returns the blocks when the copy ends.</remarks>
    public override Task CopyToAsync(Stream destination, int bufferSize, CancellationToken cancellationToken)
    {
        ValidateCopyToArguments(destination, bufferSize);
        EnsureNotDisposed();
        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled(cancellationToken);
        }

        if (ReferenceEquals(destination, this))
        {
            CopyToSelf();
            return Task.CompletedTask;
        }

        EnterReader();
        long start = _position;
        long end = Math.Max(start, _length);
        _position = end;
        return CopyRangeAsync(destination, start, end, cancellationToken);
    }

    /// <summary>Writes the whole contents into <paramref name="stream"/>, whatever the position (which does not move).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="stream"/> is null.</exception>
    public override void WriteTo(Stream stream) => WriteTo(stream, 0, Length);

    /// <summary>Writes <paramref name="count"/> bytes from <paramref name="offset"/> into <paramref name="stream"/>, whatever the position (which does not move).</summary>
    /// <exception cref="ArgumentNullException"><paramref name="stream"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the stream.</exception>
    public void WriteTo(Stream stream, long offset, long count)
    {
        if (stream is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(stream));
        }

        if (ReferenceEquals(stream, this))
        {
            byte[] copy = ToArrayRange(offset, count);
            Write(copy);
            return;
        }

        using ReaderClaim claim = EnterReader();
        CheckRange(offset, count);
        WriteRange(stream, offset, offset + count);
    }

    /// <summary>Copies the whole contents into the start of <paramref name="buffer"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="buffer"/> is shorter than the stream.</exception>
    public void WriteTo(byte[] buffer) => WriteTo(buffer, 0, Length, 0);

    /// <summary>Copies <paramref name="count"/> bytes from <paramref name="offset"/> into the start of <paramref name="buffer"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the stream, or does not fit <paramref name="buffer"/>.</exception>
    public void WriteTo(byte[] buffer, long offset, long count) => WriteTo(buffer, offset, count, 0);

    /// <summary>Copies <paramref name="count"/> bytes from <paramref name="offset"/> into <paramref name="buffer"/> at <paramref name="targetIndex"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The range is not within the stream, or does not fit <paramref name="buffer"/> at <paramref name="targetIndex"/>.</exception>
    public void WriteTo(byte[] buffer, long offset, long count, int targetIndex)
    {
        if (buffer is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(buffer));
        }

        using ReaderClaim claim = EnterReader();
        CheckRange(offset, count);
        if (targetIndex < 0 || count > buffer.Length - targetIndex)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(targetIndex), "targetIndex must not be negative and targetIndex + count must not exceed the length of the buffer.");
        }

        CopyOut(offset, buffer.AsSpan(targetIndex, (int)count));
    }

    /// <summary>Reads up to <paramref name="count"/> bytes at <paramref name="streamPosition"/> and moves that position past them, leaving <see cref="Position"/> alone: any number of threads may read one stream this way at once.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/>, <paramref name="count"/> or <paramref name="streamPosition"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    public int SafeRead(byte[] buffer, int offset, int count, ref long streamPosition)
    {
        ValidateBufferArguments(buffer, offset, count);
        return SafeRead(buffer.AsSpan(offset, count), ref streamPosition);
    }

    /// <summary>As <see cref="SafeRead(byte[], int, int, ref long)"/>, into a span.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="streamPosition"/> is negative.</exception>
    public int SafeRead(Span<byte> buffer, ref long streamPosition)
    {
        CheckStreamPosition(streamPosition);
        using ReaderClaim claim = EnterReader();
        int count = CopyOut(streamPosition, buffer);
        streamPosition += count;
        return count;
    }

    /// <summary>Reads the byte at <paramref name="streamPosition"/> and moves that position past it, leaving <see cref="Position"/> alone (see <see cref="SafeRead(byte[], int, int, ref long)"/>).</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="streamPosition"/> is negative.</exception>
    public int SafeReadByte(ref long streamPosition)
    {
        CheckStreamPosition(streamPosition);
        return ReadByteAt(ref streamPosition);
    }

    private static void CheckStreamPosition(long streamPosition)
    {
        if (streamPosition < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(streamPosition), "The position must not be negative.");
        }
    }

    /// <summary>Throws unless offset and count lie within the stream; the caller holds a claim.</summary>
    private void CheckRange(long offset, long count)
    {
        if (offset < 0 || count < 0 || offset > _length - count)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(offset), "offset and count must not be negative and offset + count must not exceed the length of the stream.");
        }
    }

    /// <summary>A copy of a range of the contents (for copying a stream into itself).</summary>
    private byte[] ToArrayRange(long offset, long count)
    {
        using ReaderClaim claim = EnterReader();
        CheckRange(offset, count);
        if (count > Array.MaxLength)
        {
            ThrowHelper.ThrowInvalidOperation("The range is longer than an array can be.");
        }

        byte[] copy = GC.AllocateUninitializedArray<byte>((int)count);
        CopyOut(offset, copy);
        return copy;
    }

    /// <summary><c>CopyTo(this)</c>: appends the bytes from the position to the end at the end, as <see cref="MemoryStream"/> does.</summary>
    private void CopyToSelf()
    {
        long start = Position;
        long length = Length;
        if (start >= length)
        {
            return;
        }

        byte[] copy = ToArrayRange(start, length - start);
        _position = length;
        Write(copy);
    }

    /// <summary>Writes the range to <paramref name="destination"/> straight from the storage; the caller holds a reader's claim.</summary>
    private void WriteRange(Stream destination, long start, long end)
    {
        for (long position = start; position < end;)
        {
            byte[] array = Locate(position, (int)Math.Min(end - position, int.MaxValue), out int offset, out int length);
            destination.Write(array, offset, length);
            position += length;
        }
    }

    /// <summary>As <see cref="WriteRange"/>, asynchronously; gives the reader's claim taken by the caller back when done.</summary>
    private async Task CopyRangeAsync(Stream destination, long start, long end, CancellationToken cancellationToken)
    {
        try
        {
            for (long position = start; position < end;)
            {
                byte[] array = Locate(position, (int)Math.Min(end - position, int.MaxValue), out int offset, out int length);
                await destination.WriteAsync(array.AsMemory(offset, length), cancellationToken).ConfigureAwait(false);
                position += length;
            }
        }
        finally
        {
            ExitReader();
        }
    }
}
