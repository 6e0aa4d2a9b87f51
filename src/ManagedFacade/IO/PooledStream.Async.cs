using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace NativePool;

/// <summary>The asynchronous members and the copies to other streams.</summary>
public sealed partial class PooledStream
{
    /// <summary>Reads synchronously and returns the result as a completed task (a cancelled one for a cancelled token).</summary>
    /// <param name="buffer">The destination.</param>
    /// <param name="offset">Where in <paramref name="buffer"/> to start.</param>
    /// <param name="count">The most bytes to read.</param>
    /// <param name="cancellationToken">Checked before reading.</param>
    /// <returns>The bytes read; a faulted task carries any other failure (a disposed stream).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> or <paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Reads synchronously and returns the result as a completed value task (a cancelled one for a cancelled token).</summary>
    /// <param name="buffer">The destination.</param>
    /// <param name="cancellationToken">Checked before reading.</param>
    /// <returns>The bytes read; a faulted task carries any failure (a disposed stream).</returns>
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
    /// <param name="buffer">The source.</param>
    /// <param name="offset">Where in <paramref name="buffer"/> to start.</param>
    /// <param name="count">The bytes to write.</param>
    /// <param name="cancellationToken">Checked before writing.</param>
    /// <returns>A completed task; a faulted one carries any other failure (a disposed stream, a stream too long).</returns>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> or <paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        ValidateBufferArguments(buffer, offset, count);
        return WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }

    /// <summary>Writes synchronously and returns a completed value task (a cancelled one for a cancelled token).</summary>
    /// <param name="buffer">The source.</param>
    /// <param name="cancellationToken">Checked before writing.</param>
    /// <returns>A completed task; a faulted one carries any failure (a disposed stream, a stream too long).</returns>
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
    /// <param name="cancellationToken">Checked first.</param>
    /// <returns>A completed task.</returns>
    public override Task FlushAsync(CancellationToken cancellationToken) =>
        cancellationToken.IsCancellationRequested ? Task.FromCanceled(cancellationToken) : Task.CompletedTask;

    /// <summary>Writes the bytes from the position to the end into <paramref name="destination"/>, block by block with no intermediate buffer, and moves the position to the end.</summary>
    /// <param name="destination">The stream to write to.</param>
    /// <param name="bufferSize">Validated as <see cref="Stream.CopyTo(Stream, int)"/> does; unused (the blocks are written directly).</param>
    /// <exception cref="ArgumentNullException"><paramref name="destination"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="bufferSize"/> is not positive.</exception>
    /// <exception cref="NotSupportedException"><paramref name="destination"/> cannot be written.</exception>
    /// <exception cref="ObjectDisposedException">This stream or <paramref name="destination"/> is disposed.</exception>
    public override void CopyTo(Stream destination, int bufferSize)
    {
        ValidateCopyToArguments(destination, bufferSize);
        EnsureNotDisposed();
        int start = _position;
        int end = Math.Max(start, _length);
        _position = end;
        WriteRange(destination, start, end);
    }

    /// <summary>Writes the bytes from the position to the end into <paramref name="destination"/> asynchronously, block by block, and moves the position to the end.</summary>
    /// <param name="destination">The stream to write to.</param>
    /// <param name="bufferSize">Validated as <see cref="Stream.CopyToAsync(Stream, int, CancellationToken)"/> does; unused.</param>
    /// <param name="cancellationToken">Passed to each write; a cancelled token gives a cancelled task.</param>
    /// <returns>The copy.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="destination"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="bufferSize"/> is not positive.</exception>
    /// <exception cref="NotSupportedException"><paramref name="destination"/> cannot be written.</exception>
    /// <exception cref="ObjectDisposedException">This stream or <paramref name="destination"/> is disposed.</exception>
    /// <remarks>The stream must not be written or disposed until the task completes: the writes read its blocks in place.</remarks>
    public override Task CopyToAsync(Stream destination, int bufferSize, CancellationToken cancellationToken)
    {
        ValidateCopyToArguments(destination, bufferSize);
        EnsureNotDisposed();
        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled(cancellationToken);
        }

        int start = _position;
        int end = Math.Max(start, _length);
        _position = end;
        return CopyRangeAsync(destination, start, end, cancellationToken);
    }

    /// <summary>Writes the whole contents into <paramref name="stream"/>, whatever the position (which does not move).</summary>
    /// <param name="stream">The stream to write to.</param>
    /// <exception cref="ArgumentNullException"><paramref name="stream"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">This stream is disposed.</exception>
    public override void WriteTo(Stream stream)
    {
        if (stream is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(stream));
        }

        EnsureNotDisposed();
        WriteRange(stream, 0, _length);
    }

    private void WriteRange(Stream destination, int start, int end)
    {
        for (int position = start; position < end;)
        {
            ArraySegment<byte> segment = ArraySegmentAt(position, end - position);
            destination.Write(segment.Array!, segment.Offset, segment.Count);
            position += segment.Count;
        }
    }

    private async Task CopyRangeAsync(Stream destination, int start, int end, CancellationToken cancellationToken)
    {
        for (int position = start; position < end;)
        {
            ArraySegment<byte> segment = ArraySegmentAt(position, end - position);
            await destination.WriteAsync(segment.AsMemory(), cancellationToken).ConfigureAwait(false);
            position += segment.Count;
        }
    }
}
