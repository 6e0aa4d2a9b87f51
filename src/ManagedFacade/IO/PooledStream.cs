using System;
using System.Buffers;
using System.Diagnostics.CodeAnalysis;
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
/// Behaves as <see cref="MemoryStream"/> member by member, with 64-bit positions and lengths. One thread at a time, with
/// parallel readers through <see cref="SafeRead(Span{byte}, ref long)"/> and <see cref="SafeReadByte"/>: every member
/// that touches the storage claims the stream in <see cref="_state"/> (readers share the claim, a writer holds it
/// alone), a conflicting member throws <see cref="InvalidOperationException"/>, and the storage is released once, by
/// <c>Dispose</c> or by the last member to give its claim back.
/// </remarks>
public sealed partial class PooledStream : MemoryStream, IBufferWriter<byte>
{
    private const int DisposedBit = 1;
    private const int WriterBit = 2;
    private const int OneReader = 4;

    /// <summary>Set when the stream is collected (<see cref="OnCollected"/>): a claim never given back, so no member of a resurrected stream releases what the collection let go of.</summary>
    private const int CollectedBit = 1 << 30;

    private readonly PooledStreamManager _manager;

    /// <summary>The claim word: <see cref="DisposedBit"/> (set by the first <c>Dispose</c>), <see cref="WriterBit"/> (held by the one writer) and the readers in units of <see cref="OneReader"/>.</summary>
    private int _state;

    /// <summary>The blocks (a pooled array of at least <see cref="_blockCount"/> entries), or null before the first block and after <see cref="GetBuffer"/>.</summary>
    private byte[]?[]? _blocks;
    private int _blockCount;

    /// <summary>The one contiguous buffer once <see cref="GetBuffer"/> asked for it.</summary>
    private byte[]? _buffer;

    private long _length;
    private long _position;

    /// <summary>Bytes from the start of the storage that may have been written (zeroed on return when the manager zeroes).</summary>
    private long _dirty;

    /// <summary>Creates a stream of <paramref name="manager"/>; the arguments after the tag are for the <see cref="PooledStreamManager.StreamCreated"/> event.</summary>
    internal PooledStream(PooledStreamManager manager, string? tag, long requestedSize, bool contiguous)
    {
        _manager = manager;
        if (tag is not null)
        {
            _extras = new Extras { Tag = tag };
        }

        manager.OnStreamCreated(this, requestedSize, contiguous);
    }

    /// <summary>Reports a stream that was never disposed (the <c>StreamFinalized</c> event) and counts its storage as dropped (see <see cref="OnCollected"/>).</summary>
    ~PooledStream() => OnCollected();

    /// <summary>The manager the stream's buffers come from.</summary>
    public PooledStreamManager Manager => _manager;

    /// <summary>The stream's number, unique within the process (given when first read); named in events and by <see cref="ToString"/>.</summary>
    public long Id => GetId();

    /// <summary>The tag given to <see cref="PooledStreamManager.GetStream(string)"/>, or null; named in events and by <see cref="ToString"/>.</summary>
    public string? Tag =>
        // Volatile: the extra state is published by a compare-exchange, possibly on another thread.
        Volatile.Read(ref _extras)?.Tag;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanRead => !IsDisposed;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanSeek => !IsDisposed;

    /// <summary>True until the stream is disposed.</summary>
    public override bool CanWrite => !IsDisposed;

    /// <summary>The bytes in the stream.</summary>
    public override long Length
    {
        get
        {
            EnsureNotDisposed();
            return _length;
        }
    }

    /// <summary>The position of the next read or write; may be set past the end (a write there zero-fills the gap).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative or more than the longest stream the manager allows.</exception>
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
            if (value > MaximumLength)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The position is past the longest stream the manager allows.");
            }

            _position = value;
        }
    }

    /// <summary>The bytes the stream holds without renting more: a whole number of blocks, or the size of its contiguous buffer. Setting it rents at least that much; it never gives storage back before <c>Dispose</c>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value set is less than <see cref="Length"/>.</exception>
    /// <exception cref="InvalidOperationException">The capacity is more than <see cref="int.MaxValue"/>: read <see cref="Capacity64"/>.</exception>
    /// <exception cref="IOException">The value set is more than the manager's <see cref="PooledStreamManagerOptions.MaximumStreamCapacity"/>.</exception>
    public override int Capacity
    {
        get
        {
            long capacity = Capacity64;
            if (capacity > int.MaxValue)
            {
                ThrowHelper.ThrowInvalidOperation("The capacity is more than int.MaxValue: read Capacity64.");
            }

            return (int)capacity;
        }

        set => Capacity64 = value;
    }

    /// <summary>As <see cref="Capacity"/>, 64-bit.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value set is less than <see cref="Length"/>.</exception>
    /// <exception cref="IOException">The value set is more than the manager's <see cref="PooledStreamManagerOptions.MaximumStreamCapacity"/>.</exception>
    public long Capacity64
    {
        get
        {
            EnsureNotDisposed();
            return CurrentCapacity;
        }

        set
        {
            using WriterClaim claim = EnterWriter();
            if (value < _length)
            {
                ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The capacity must not be less than the stream's length.");
            }

            EnsureCapacity(value);
        }
    }

    private long CurrentCapacity => _buffer is not null ? _buffer.Length : (long)_blockCount << BlockShift;

    /// <summary>log2 of the manager's block size (read from the manager, which keeps the stream object small).</summary>
    private int BlockShift => _manager.BlockShift;

    private int BlockMask => _manager.BlockMask;

    /// <summary>The longest stream: the block list is an array of at most <see cref="Array.MaxLength"/> blocks.</summary>
    private long MaximumLength => _manager.MaximumStreamLength;

    /// <summary>The most bytes the stream may hold: the manager's <see cref="PooledStreamManagerOptions.MaximumStreamCapacity"/>, or <see cref="MaximumLength"/>.</summary>
    private long WriteLimit => _manager.StreamWriteLimit;

    private bool IsDisposed =>
        // Volatile: Dispose sets the bit with a compare-exchange, possibly on another thread; a stale read is settled by the claims.
        (Volatile.Read(ref _state) & DisposedBit) != 0;

    /// <summary>Does nothing: the contents are in memory.</summary>
    public override void Flush()
    {
    }

    /// <summary>Reads up to <paramref name="count"/> bytes into <paramref name="buffer"/> from the position.</summary>
    public override int Read(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        return Read(buffer.AsSpan(offset, count));
    }

    /// <summary>Reads up to <c>buffer.Length</c> bytes from the position.</summary>
    public override int Read(Span<byte> buffer)
    {
        using ReaderClaim claim = EnterReader();
        long position = _position;
        int count;
        if (position + buffer.Length <= _length && TryLocateRun(position, buffer.Length, out byte[]? array, out int offset))
        {
            array.AsSpan(offset, buffer.Length).CopyTo(buffer);
            count = buffer.Length;
        }
        else
        {
            count = CopyOut(position, buffer);
        }

        _position = position + count;
        return count;
    }

    /// <summary>Reads one byte.</summary>
    public override int ReadByte() => ReadByteAt(ref _position);

    /// <summary>Writes <paramref name="count"/> bytes of <paramref name="buffer"/> at the position.</summary>
    /// <exception cref="IOException">The stream would be longer than the manager allows.</exception>
    public override void Write(byte[] buffer, int offset, int count)
    {
        ValidateBufferArguments(buffer, offset, count);
        Write(new ReadOnlySpan<byte>(buffer, offset, count));
    }

    /// <summary>Writes <paramref name="buffer"/> at the position, zero-filling any gap past the end first.</summary>
    /// <exception cref="IOException">The stream would be longer than the manager allows.</exception>
    public override void Write(ReadOnlySpan<byte> buffer)
    {
        using WriterClaim claim = EnterWriter();
        EndGrant();
        long position = _position;
        if (position <= _length && position + buffer.Length <= WriteLimit && TryLocateRun(position, buffer.Length, out byte[]? array, out int offset))
        {
            buffer.CopyTo(array.AsSpan(offset, buffer.Length));
            CompleteWrite(position + buffer.Length);
        }
        else
        {
            WriteCore(buffer);
        }
    }

    /// <summary>Writes one byte at the position.</summary>
    /// <exception cref="IOException">The stream would be longer than the manager allows.</exception>
    public override void WriteByte(byte value)
    {
        using WriterClaim claim = EnterWriter();
        EndGrant();
        long position = _position;
        if (position < WriteLimit && position <= _length && TryLocateRun(position, 1, out byte[]? array, out int offset))
        {
            array[offset] = value;
            CompleteWrite(position + 1);
        }
        else
        {
            WriteCore(new ReadOnlySpan<byte>(in value));
        }
    }

    /// <summary>Moves the position; past the end is allowed.</summary>
    /// <exception cref="ArgumentException"><paramref name="loc"/> is not a <see cref="SeekOrigin"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The position would be past the longest stream the manager allows.</exception>
    /// <exception cref="IOException">The position would be before the start.</exception>
    public override long Seek(long offset, SeekOrigin loc)
    {
        EnsureNotDisposed();
        long origin = loc switch
        {
            SeekOrigin.Begin => 0,
            SeekOrigin.Current => _position,
            SeekOrigin.End => _length,
            _ => InvalidSeekOrigin(),
        };

        if (offset > MaximumLength - origin)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(offset), "The position is past the longest stream the manager allows.");
        }

        long position = origin + offset;
        if (position < 0)
        {
            ThrowHelper.ThrowIO("An attempt was made to move the position before the beginning of the stream.");
        }

        _position = position;
        return position;
    }

    /// <summary>Sets the length: growing zero-fills the new bytes, shrinking moves a position past the new end back to it.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="value"/> is negative or past the longest stream the manager allows.</exception>
    /// <exception cref="IOException">The length is more than the manager's <see cref="PooledStreamManagerOptions.MaximumStreamCapacity"/>.</exception>
    /// <exception cref="NotSupportedException">The stream is disposed (it is no longer writable, as <see cref="MemoryStream"/> reports).</exception>
    public override void SetLength(long value)
    {
        if (value < 0 || value > MaximumLength)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(value), "The length must be from 0 to the longest stream the manager allows.");
        }

        if (IsDisposed)
        {
            ThrowHelper.ThrowNotSupported("The stream does not support writing: it has been disposed.");
        }

        using WriterClaim claim = EnterWriter();
        EndGrant();
        if (value > _length)
        {
            EnsureCapacity(value);
            ZeroRange(_length, value);
            _dirty = Math.Max(_dirty, value);
        }

        _length = value;
        if (_position > value)
        {
            _position = value;
        }
    }

    /// <summary>The stream's id, tag and length.</summary>
    public override string ToString() =>
        FormattableString.Invariant($"Id = {Id}, Tag = {Tag}, Length = {(IsDisposed ? 0 : _length)} bytes");

    /// <summary>Marks the stream disposed and gives its storage back once no member is using it; a second call is reported.</summary>
    /// <param name="disposing">True from <c>Dispose</c>.</param>
    protected override void Dispose(bool disposing)
    {
        // Volatile: the first guess of the claim word for the compare-exchange loop below; members change it on other threads.
        int state = Volatile.Read(ref _state);
        while (true)
        {
            if ((state & DisposedBit) != 0)
            {
                _manager.OnDoubleDispose(this);
                return;
            }

            // Interlocked: settles Dispose against members claiming the stream and against another Dispose; the one
            // exchange that sets the bit decides who releases: this call if nothing was claimed, else the last claimant.
            int seen = Interlocked.CompareExchange(ref _state, state | DisposedBit, state);
            if (seen == state)
            {
                break;
            }

            state = seen;
        }

        long length = _length;
        if (state == 0)
        {
            ReleaseStorage();
        }
        else
        {
            // A member holds a claim and releases the storage when it gives it back. Should that member never finish
            // (a copy awaiting a destination that never completes) and be collected with the stream, the watch's
            // finalizer counts the storage as dropped (Close suppresses this stream's own finalizer).
            GetExtras().Watch = new CollectionWatch(this);
        }

        _manager.OnStreamDisposed(this, length);
        base.Dispose(disposing);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void EnsureNotDisposed()
    {
        if (IsDisposed)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(PooledStream));
        }
    }

    /// <summary>Claims the stream for a member that changes the storage (see the remarks on the class) until the claim is disposed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private WriterClaim EnterWriter()
    {
        // Interlocked: claims the stream alone; fails against Dispose (the bit), a reader or another writer.
        if (Interlocked.CompareExchange(ref _state, WriterBit, 0) != 0)
        {
            ThrowClaimFailed();
        }

        return new WriterClaim(this);
    }

    /// <summary>Gives a writer's claim back, releasing the storage when <c>Dispose</c> ran meanwhile.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ExitWriter()
    {
        // Interlocked: a Dispose during the member set DisposedBit; then the exchange fails and this thread releases.
        if (Interlocked.CompareExchange(ref _state, 0, WriterBit) != WriterBit)
        {
            ReleaseAfterDispose();
        }
    }

    /// <summary>Claims the stream for a member that only reads the storage until the claim is disposed; readers share the claim.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ReaderClaim EnterReader()
    {
        // Volatile: the first guess of the claim word; Dispose, writers and readers change it on other threads.
        int state = Volatile.Read(ref _state);

        // Interlocked: adds one reader unless a writer or Dispose holds the word; a changed word retries in the slow path.
        if ((state & (DisposedBit | WriterBit)) != 0 || Interlocked.CompareExchange(ref _state, state + OneReader, state) != state)
        {
            EnterReaderSlow();
        }

        return new ReaderClaim(this);
    }

    /// <summary>Gives a reader's claim back, releasing the storage when it was the last claim of a disposed stream.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void ExitReader()
    {
        // Interlocked: exactly one reader sees the word drop to DisposedBit alone (disposed, unclaimed) and releases.
        if (Interlocked.Add(ref _state, -OneReader) == DisposedBit)
        {
            ReleaseStorage();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EnterReaderSlow()
    {
        // Volatile: as in EnterReader; the loop retries on every change.
        int state = Volatile.Read(ref _state);
        while (true)
        {
            if ((state & (DisposedBit | WriterBit)) != 0)
            {
                ThrowClaimFailed();
            }

            // Interlocked: other readers come and go; retry until this reader's increment lands on the word it read.
            int seen = Interlocked.CompareExchange(ref _state, state + OneReader, state);
            if (seen == state)
            {
                return;
            }

            state = seen;
        }
    }

    /// <summary>A writer's exit found <see cref="DisposedBit"/>: the word becomes "disposed" and this thread releases.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReleaseAfterDispose()
    {
        // Interlocked: only Dispose and a collection change a word holding the writer bit; clears the claim, and releases
        // unless the collection's bit says the storage was already let go of.
        if (Interlocked.Add(ref _state, -WriterBit) == DisposedBit)
        {
            ReleaseStorage();
        }
    }

    /// <summary>The stream became unreachable: storage it still holds is counted as dropped, and a stream never disposed is reported (<c>StreamFinalized</c>).</summary>
    /// <remarks>Not pooled: a buffer or sequence the stream handed out may still be reachable, and pooling it would give it a second tenant. Runs on the finalizer thread, at most once.</remarks>
    private void OnCollected()
    {
        // Interlocked: the stream and its watch may both be finalized, and a member of a resurrected stream may still give
        // a claim back; the bit makes this run once and keeps any such member from releasing afterwards.
        int state = Interlocked.Or(ref _state, CollectedBit);
        if ((state & CollectedBit) != 0 || state == DisposedBit)
        {
            // Already collected, or disposed and released.
            return;
        }

        ReleaseStorage(abandoned: true);
        if ((state & DisposedBit) == 0)
        {
            _manager.OnStreamFinalized(this);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ThrowClaimFailed()
    {
        if (IsDisposed)
        {
            ThrowHelper.ThrowObjectDisposed(nameof(PooledStream));
        }

        ThrowHelper.ThrowInvalidOperation("The stream is in use by another thread: a stream is for one thread at a time (SafeRead and SafeReadByte may run in parallel).");
    }

    /// <summary>Reads the byte at <paramref name="position"/> (-1 at or past the end) under a reader's claim and moves <paramref name="position"/> past it.</summary>
    private int ReadByteAt(ref long position)
    {
        using ReaderClaim claim = EnterReader();
        long at = position;
        if (at >= _length)
        {
            return -1;
        }

        position = at + 1;
        return SegmentAt(at, 1)[0];
    }

    /// <summary>Writes <paramref name="buffer"/> at the position; the caller holds the writer's claim.</summary>
    private void WriteCore(ReadOnlySpan<byte> buffer)
    {
        long position = _position;
        long end = PrepareWrite(position, buffer.Length);
        int done = 0;
        while (done < buffer.Length)
        {
            Span<byte> segment = SegmentAt(position + done, buffer.Length - done);
            buffer.Slice(done, segment.Length).CopyTo(segment);
            done += segment.Length;
        }

        CompleteWrite(end);
    }

    /// <summary>Copies the bytes from <paramref name="position"/> into <paramref name="destination"/>, up to the length, and returns how many; the caller holds a claim.</summary>
    private int CopyOut(long position, Span<byte> destination)
    {
        long available = _length - position;
        if (available <= 0)
        {
            return 0;
        }

        int count = (int)Math.Min(destination.Length, available);
        int done = 0;
        while (done < count)
        {
            Span<byte> segment = SegmentAt(position + done, count - done);
            segment.CopyTo(destination.Slice(done));
            done += segment.Length;
        }

        return count;
    }

    /// <summary>Makes room for a write of <paramref name="count"/> bytes at <paramref name="position"/>, zero-fills a gap before it, and returns the write's end.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private long PrepareWrite(long position, int count)
    {
        long end = position + count;
        if (end > CurrentCapacity || end > WriteLimit)
        {
            EnsureCapacity(end);
        }

        if (position > _length)
        {
            ZeroRange(_length, position);
        }

        return end;
    }

    /// <summary>Moves the position and the length past a write that ended at <paramref name="end"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CompleteWrite(long end)
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
    private Span<byte> SegmentAt(long position, int count)
    {
        byte[] array = Locate(position, count, out int offset, out int length);
        return array.AsSpan(offset, length);
    }

    /// <summary>The array holding <paramref name="position"/>, and the contiguous run from there of at most <paramref name="count"/> bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private byte[] Locate(long position, int count, out int offset, out int length)
    {
        if (_buffer is { } buffer)
        {
            offset = (int)position;
            length = Math.Min(count, buffer.Length - offset);
            return buffer;
        }

        int shift = BlockShift;
        int blockSize = 1 << shift;
        offset = (int)position & (blockSize - 1);
        length = Math.Min(count, blockSize - offset);
        return _blocks![(int)(position >> shift)]!;
    }

    /// <summary>The fast path of reads and writes: the array and offset of <paramref name="count"/> bytes at <paramref name="position"/> when they lie in one block (or the buffer) the stream already holds.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryLocateRun(long position, int count, [NotNullWhen(true)] out byte[]? array, out int offset)
    {
        if (_buffer is { } buffer)
        {
            offset = (int)position;
            array = buffer;
            return position + count <= buffer.Length;
        }

        int shift = BlockShift;
        offset = (int)position & ((1 << shift) - 1);
        long index = position >> shift;
        if (index < _blockCount && offset + count <= 1 << shift)
        {
            array = _blocks![index]!;
            return true;
        }

        array = null;
        return false;
    }

    /// <summary>Zero-fills the bytes from <paramref name="start"/> to <paramref name="end"/>, within the capacity.</summary>
    private void ZeroRange(long start, long end)
    {
        for (long position = start; position < end;)
        {
            Span<byte> segment = SegmentAt(position, (int)Math.Min(end - position, int.MaxValue));
            segment.Clear();
            position += segment.Length;
        }
    }

    [DoesNotReturn]
    private static long InvalidSeekOrigin()
    {
        ThrowHelper.ThrowArgument("loc", "Invalid seek origin.");
        return 0;
    }

    /// <summary>A writer's claim: <c>using</c> gives it back however the member ends.</summary>
    private readonly ref struct WriterClaim(PooledStream stream)
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Dispose() => stream.ExitWriter();
    }

    /// <summary>A reader's claim: <c>using</c> gives it back however the member ends.</summary>
    private readonly ref struct ReaderClaim(PooledStream stream)
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Dispose() => stream.ExitReader();
    }
}
