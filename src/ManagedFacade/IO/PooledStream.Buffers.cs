using System;
using System.Buffers;

namespace NativePool;

/// <summary>The views of the contents: one buffer, a copy, a sequence over the blocks, and the stream as a buffer writer.</summary>
public sealed partial class PooledStream
{
    /// <summary>The temporary buffer handed out by <see cref="GetSpan"/> when the request does not fit the storage contiguously.</summary>
    private byte[]? _pending;

    /// <summary>The length of the span or memory last handed out by <see cref="GetSpan"/> or <see cref="GetMemory"/> (-1: none).</summary>
    private int _granted = -1;

    /// <summary>
    /// The contents as one array whose first <see cref="Length"/> bytes are the stream's (it may be longer). A stream of
    /// more than one block is first moved into one pooled buffer (a copy of the contents, once).
    /// </summary>
    /// <returns>The buffer; valid until the next write, <see cref="Capacity"/> change or <c>Dispose</c>.</returns>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override byte[] GetBuffer()
    {
        EnsureNotDisposed();
        if (_buffer is { } buffer)
        {
            return buffer;
        }

        if (_blockCount == 0)
        {
            return [];
        }

        if (_blockCount == 1)
        {
            return _blocks![0]!;
        }

        GrowBuffer(_length);
        return _buffer!;
    }

    /// <summary>The contents as an array segment of <see cref="Length"/> bytes (see <see cref="GetBuffer"/>); false once disposed.</summary>
    /// <param name="buffer">The contents, or default.</param>
    /// <returns>True while the stream is not disposed.</returns>
    public override bool TryGetBuffer(out ArraySegment<byte> buffer)
    {
        if (_disposed != 0)
        {
            buffer = default;
            return false;
        }

        buffer = new ArraySegment<byte>(GetBuffer(), 0, _length);
        return true;
    }

    /// <summary>
    /// Copies the contents into a new array. This allocates the whole length, which pooling exists to avoid: prefer
    /// <see cref="GetReadOnlySequence"/>, <see cref="CopyTo(System.IO.Stream, int)"/> or <see cref="WriteTo"/>. On a
    /// stream long enough for the large object heap (85 000 bytes or more) it raises the <c>StreamCopiedToArray</c> event.
    /// </summary>
    /// <returns>A new array of <see cref="Length"/> bytes.</returns>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public override byte[] ToArray()
    {
        EnsureNotDisposed();
        if (_length == 0)
        {
            return [];
        }

        byte[] copy = GC.AllocateUninitializedArray<byte>(_length);
        for (int position = 0; position < _length;)
        {
            Span<byte> segment = SegmentAt(position, _length - position);
            segment.CopyTo(copy.AsSpan(position));
            position += segment.Length;
        }

        _manager.OnCopiedToArray(this, _length);
        return copy;
    }

    /// <summary>The contents as a sequence over the blocks (or the buffer), without copying.</summary>
    /// <returns>A sequence of <see cref="Length"/> bytes; valid until the next write, <see cref="Capacity"/> change or <c>Dispose</c>.</returns>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    /// <remarks>A stream of more than one block allocates one small segment object per block for the sequence.</remarks>
    public ReadOnlySequence<byte> GetReadOnlySequence()
    {
        EnsureNotDisposed();
        if (_length == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        if (_buffer is { } buffer)
        {
            return new ReadOnlySequence<byte>(buffer, 0, _length);
        }

        int blockSize = _blockMask + 1;
        if (_length <= blockSize)
        {
            return new ReadOnlySequence<byte>(_blocks![0]!, 0, _length);
        }

        var first = new BlockSegment(_blocks![0]!, 0);
        BlockSegment last = first;
        int position = blockSize;
        for (int i = 1; position < _length; i++, position += blockSize)
        {
            last = last.Append(_blocks[i]!, position);
        }

        return new ReadOnlySequence<byte>(first, 0, last, _length - (position - blockSize));
    }

    /// <summary>Writable memory at the position of at least <paramref name="sizeHint"/> bytes (1 for 0); <see cref="Advance"/> commits it.</summary>
    /// <param name="sizeHint">The bytes wanted, 0 or more.</param>
    /// <returns>The memory; valid until <see cref="Advance"/> or the next write.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    /// <remarks>
    /// Where the request fits in the current block (or buffer), the memory is the storage itself; otherwise it is a
    /// pooled buffer that <see cref="Advance"/> copies in.
    /// </remarks>
    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        byte[] array = Grant(sizeHint, out int offset, out int length);
        return array.AsMemory(offset, length);
    }

    /// <summary>Writable span at the position of at least <paramref name="sizeHint"/> bytes (1 for 0); <see cref="Advance"/> commits it.</summary>
    /// <param name="sizeHint">The bytes wanted, 0 or more.</param>
    /// <returns>The span; valid until <see cref="Advance"/> or the next write.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public Span<byte> GetSpan(int sizeHint = 0)
    {
        byte[] array = Grant(sizeHint, out int offset, out int length);
        return array.AsSpan(offset, length);
    }

    /// <summary>Commits <paramref name="count"/> bytes of the memory last handed out at the position, and moves past them.</summary>
    /// <param name="count">The bytes written, 0 to the length handed out.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or more than was handed out.</exception>
    /// <exception cref="InvalidOperationException">No memory was handed out since the last <see cref="Advance"/>.</exception>
    /// <exception cref="ObjectDisposedException">The stream is disposed.</exception>
    public void Advance(int count)
    {
        EnsureNotDisposed();
        if (_granted < 0)
        {
            ThrowHelper.ThrowInvalidOperation("Advance was called without a GetSpan or GetMemory before it.");
        }

        if ((uint)count > (uint)_granted)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The count must be from 0 to the length of the memory handed out.");
        }

        _granted = -1;
        if (_pending is { } pending)
        {
            _pending = null;
            try
            {
                Write(pending.AsSpan(0, count));
            }
            finally
            {
                _manager.Return(pending, pending.Length);
            }

            return;
        }

        if (count > 0)
        {
            CompleteWrite(_position + count);
        }
    }

    /// <summary>Hands out storage (or a pending buffer) for a write of at least <paramref name="sizeHint"/> bytes at the position.</summary>
    private byte[] Grant(int sizeHint, out int offset, out int length)
    {
        EnsureNotDisposed();
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(sizeHint), "The size hint must not be negative.");
        }

        if (_pending is { } previous)
        {
            // A grant never advanced: its buffer goes back before a new one is handed out.
            _pending = null;
            _manager.Return(previous, previous.Length);
        }

        int wanted = Math.Max(sizeHint, 1);
        int position = _position;
        _ = PrepareWrite(position, wanted);
        byte[] array = Locate(position, int.MaxValue - position, out offset, out length);
        if (length < wanted)
        {
            // Across a block boundary: a pooled buffer stands in, and Advance copies it in.
            array = _manager.RentBuffer(wanted);
            _pending = array;
            offset = 0;
            length = array.Length;
        }
        else
        {
            _dirty = Math.Max(_dirty, position + length);
        }

        _granted = length;
        return array;
    }

    /// <summary>One block of a <see cref="ReadOnlySequence{T}"/> over the blocks.</summary>
    private sealed class BlockSegment : ReadOnlySequenceSegment<byte>
    {
        public BlockSegment(byte[] block, long runningIndex)
        {
            Memory = block;
            RunningIndex = runningIndex;
        }

        public BlockSegment Append(byte[] block, long runningIndex)
        {
            var next = new BlockSegment(block, runningIndex);
            Next = next;
            return next;
        }
    }
}
