using System;
using System.Buffers;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>The views of the contents: one buffer, a copy, a sequence over the blocks, and the stream as a buffer writer.</summary>
public sealed partial class PooledStream
{
    /// <summary>The contents as one array, at least <see cref="Capacity64"/> long, whose first <see cref="Length"/> bytes are the stream's.</summary>
    /// <remarks>A stream of more than one block is first moved into one pooled buffer (a copy of the contents, once); the blocks stay the stream's until <c>Dispose</c>.</remarks>
    /// <exception cref="InvalidOperationException">The stream's capacity is more than an array can hold (<see cref="Array.MaxLength"/>), or the stream is in use by another thread.</exception>
    public override byte[] GetBuffer()
    {
        using WriterClaim claim = EnterWriter();
        return GetBufferCore();
    }

    /// <summary>The contents as an array segment of <see cref="Length"/> bytes (see <see cref="GetBuffer"/>); false, allocating nothing, once disposed or when the capacity is more than an array can hold.</summary>
    public override bool TryGetBuffer(out ArraySegment<byte> buffer)
    {
        buffer = default;
        if (IsDisposed)
        {
            return false;
        }

        using WriterClaim claim = EnterWriter();
        if (!FitsOneArray)
        {
            return false;
        }

        buffer = new ArraySegment<byte>(GetBufferCore(), 0, (int)_length);
        return true;
    }

    /// <summary>Copies the contents into a new array, allocating the whole length: prefer <see cref="GetReadOnlySequence"/>, <see cref="CopyTo(System.IO.Stream, int)"/> or <see cref="WriteTo(System.IO.Stream)"/>.</summary>
    /// <remarks>Raises the manager's <see cref="PooledStreamManager.StreamConvertedToArray"/>, and for 85 000 bytes or more (the large object heap) the event source's <c>StreamCopiedToArray</c>.</remarks>
    /// <exception cref="NotSupportedException">The manager's <see cref="PooledStreamManagerOptions.ThrowExceptionOnToArray"/> is set.</exception>
    /// <exception cref="InvalidOperationException">The stream is longer than an array can be, or being written by another thread.</exception>
    public override byte[] ToArray()
    {
        using ReaderClaim claim = EnterReader();
        _manager.OnToArray(this, _length);
        if (_length > Array.MaxLength)
        {
            ThrowHelper.ThrowInvalidOperation("The stream is longer than an array can be: read it with GetReadOnlySequence, CopyTo or WriteTo.");
        }

        if (_length == 0)
        {
            return [];
        }

        byte[] copy = GC.AllocateUninitializedArray<byte>((int)_length);
        CopyOut(0, copy);
        _manager.OnCopiedToArray(this, copy.Length);
        return copy;
    }

    /// <summary>The contents as a sequence over the blocks (or the buffer), without copying.</summary>
    /// <remarks>A stream of more than one block allocates one small segment object per block for the sequence.</remarks>
    public ReadOnlySequence<byte> GetReadOnlySequence()
    {
        using ReaderClaim claim = EnterReader();
        long length = _length;
        if (length == 0)
        {
            return ReadOnlySequence<byte>.Empty;
        }

        if (_buffer is { } buffer)
        {
            return new ReadOnlySequence<byte>(buffer, 0, (int)length);
        }

        int blockSize = BlockMask + 1;
        if (length <= blockSize)
        {
            return new ReadOnlySequence<byte>(_blocks![0]!, 0, (int)length);
        }

        var first = new BlockSegment(_blocks![0]!, 0);
        BlockSegment last = first;
        long position = blockSize;
        for (int i = 1; position < length; i++, position += blockSize)
        {
            last = last.Append(_blocks[i]!, position);
        }

        return new ReadOnlySequence<byte>(first, 0, last, (int)(length - (position - blockSize)));
    }

    /// <summary>Writable memory at the position of at least <paramref name="sizeHint"/> bytes (1 for 0); <see cref="Advance"/> commits it.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="System.IO.IOException">The stream would be longer than the manager allows.</exception>
    /// <remarks>The storage itself where the request fits in the current block (or buffer), else a pooled buffer that <see cref="Advance"/> copies in; valid until <see cref="Advance"/> or <c>Dispose</c>, even across a <see cref="GetBuffer"/> that moves the contents.</remarks>
    public Memory<byte> GetMemory(int sizeHint = 0) => Grant(sizeHint, out int offset, out int length).AsMemory(offset, length);

    /// <summary>Writable span at the position of at least <paramref name="sizeHint"/> bytes (1 for 0); <see cref="Advance"/> commits it.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    /// <exception cref="System.IO.IOException">The stream would be longer than the manager allows.</exception>
    public Span<byte> GetSpan(int sizeHint = 0) => Grant(sizeHint, out int offset, out int length).AsSpan(offset, length);

    /// <summary>
    /// Commits <paramref name="count"/> bytes of the memory last handed out and moves past them. As with
    /// <see cref="ArrayBufferWriter{T}"/>, several advances may share one <see cref="GetSpan"/> while their sum fits
    /// in what it handed out, and <c>Advance(0)</c> is always allowed.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative or more than is left of the memory handed out.</exception>
    /// <exception cref="InvalidOperationException">A positive count with no memory handed out since the last write (committing bytes nobody wrote would expose a pooled block's old contents).</exception>
    public void Advance(int count)
    {
        using WriterClaim claim = EnterWriter();
        if (count < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The count must not be negative.");
        }

        Extras? extras = _extras;
        if (extras is null || extras.Granted < 0)
        {
            if (count == 0)
            {
                return;
            }

            ThrowHelper.ThrowInvalidOperation("Advance was called without a GetSpan or GetMemory before it.");
        }

        if (count > extras.Granted)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The count must be from 0 to what is left of the memory handed out.");
        }

        if (extras.GrantKind == GrantKind.InPlace && _position == extras.GrantPosition)
        {
            CompleteWrite(_position + count);
            extras.Granted -= count;
            extras.GrantOffset += count;
            extras.GrantPosition += count;
            return;
        }

        // The memory is not the storage at the position (a stand-in, storage moved away from, or the position moved): copy it in.
        byte[] source = extras.GrantArray!;
        int offset = extras.GrantOffset;
        try
        {
            WriteCore(source.AsSpan(offset, count));
        }
        finally
        {
            ReleaseGrant();
        }
    }

    /// <summary>As <see cref="GetBuffer"/>; the caller holds the writer's claim.</summary>
    private byte[] GetBufferCore()
    {
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

        if (!FitsOneArray)
        {
            ThrowHelper.ThrowInvalidOperation(FormattableString.Invariant(
                $"The stream's capacity of {CurrentCapacity} bytes is more than an array can hold: read it with GetReadOnlySequence, CopyTo or WriteTo."));
        }

        MoveToBuffer((int)CurrentCapacity);
        return _buffer!;
    }

    /// <summary>Whether <see cref="GetBuffer"/> can return the contents in one array at least <see cref="Capacity64"/> long (so a stream longer than an array fails too).</summary>
    private bool FitsOneArray => CurrentCapacity <= Array.MaxLength;

    /// <summary>Hands out storage (or a pooled stand-in) for a write of at least <paramref name="sizeHint"/> bytes at the position.</summary>
    private byte[] Grant(int sizeHint, out int offset, out int length)
    {
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(sizeHint), "The size hint must not be negative.");
        }

        using WriterClaim claim = EnterWriter();
        // A grant never advanced: its stand-in goes back before a new one is handed out.
        ReleaseGrant();
        int wanted = Math.Max(sizeHint, 1);
        long position = _position;
        _ = PrepareWrite(position, wanted);
        byte[] array = Locate(position, int.MaxValue, out offset, out length);
        Extras extras = GetExtras();
        if (length < wanted)
        {
            array = _manager.RentBuffer(wanted);
            offset = 0;
            length = array.Length;
            extras.GrantKind = GrantKind.Rented;
        }
        else
        {
            extras.GrantKind = GrantKind.InPlace;
            _dirty = Math.Max(_dirty, position + length);
        }

        extras.GrantArray = array;
        extras.GrantOffset = offset;
        extras.Granted = length;
        extras.GrantPosition = position;
        return array;
    }

    /// <summary>The storage is moving: memory handed out in place becomes retired storage that <see cref="Advance"/> copies from.</summary>
    private void DetachGrant()
    {
        if (_extras is { Granted: >= 0, GrantKind: GrantKind.InPlace } extras)
        {
            extras.GrantKind = GrantKind.Detached;
        }
    }

    /// <summary>A write ends the memory handed out: a later <see cref="Advance"/> without a new grant throws.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EndGrant()
    {
        if (_extras is { Granted: >= 0 })
        {
            ReleaseGrant();
        }
    }

    /// <summary>Forgets the memory handed out, returning a pooled stand-in (or, <paramref name="abandoned"/>, counting it as dropped).</summary>
    private void ReleaseGrant(bool abandoned = false)
    {
        if (_extras is not { } extras)
        {
            return;
        }

        if (extras.GrantKind == GrantKind.Rented && extras.GrantArray is { } rented)
        {
            _manager.LetGo(this, rented, rented.Length, abandoned);
        }

        extras.GrantArray = null;
        extras.Granted = -1;
        extras.GrantKind = GrantKind.InPlace;
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
