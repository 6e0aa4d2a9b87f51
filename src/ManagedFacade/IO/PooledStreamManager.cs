using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// Hands out <see cref="PooledStream"/>s whose contents live in pooled, pinned byte arrays: fixed-size blocks while the
/// stream grows, one contiguous buffer once <see cref="PooledStream.GetBuffer"/> asks for it. Use <see cref="Shared"/>, or
/// <see cref="Create(PooledStreamManagerOptions)"/> for a manager of your own shape.
/// </summary>
/// <remarks>
/// Blocks and buffers come from one <see cref="StripedArrayPool{T}"/> of bytes per manager, named as the manager, so they
/// are retained, trimmed, metered and traced as the pools' own items are. Any number of threads may create and dispose
/// streams at once; the manager takes a lock only in guarded and leak-tracking modes.
/// </remarks>
public sealed partial class PooledStreamManager
{
    /// <summary>The managers alive, for the meter's stream readings (declared first: the shared manager's constructor adds itself).</summary>
    private static readonly WeakList<PooledStreamManager> s_managers = new();

    // Null when a process setting is malformed: Shared then throws the setting's exception (see SharedPool).
    private static readonly Func<PooledStreamManager> s_createShared = static () => new PooledStreamManager(new PooledStreamManagerOptions(), isShared: true);
    private static readonly PooledStreamManager? s_shared = SharedPool.TryCreate(s_createShared);

    /// <summary>The most frames a creation stack leaves out: the item guard's, the two creation hooks, the stream's constructor and up to three <c>GetStream</c>s.</summary>
    private const int GuardFrames = 7;

    private readonly StripedArrayPool<byte> _buffers;
    private readonly int _blockSize;
    private readonly int _blockShift;
    private readonly int _maximumBufferSize;
    private readonly bool _zeroOnReturn;
    private readonly bool _throwOnToArray;
    private readonly long _maximumStreamCapacity;
    private readonly long _maximumStreamLength;
    private readonly long _streamWriteLimit;

    /// <summary>The last stream id handed out, process-wide.</summary>
    private static long s_lastStreamId;

    /// <summary>Bytes of blocks (index 0) and of contiguous buffers (index 1) streams hold now.</summary>
    private readonly long[] _inUseBytes = new long[2];
    private readonly bool _guarded;
    private readonly ItemGuard<PooledStream>? _streams;

    private PooledStreamManager(PooledStreamManagerOptions options, bool isShared)
    {
        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();

        _blockSize = options.BlockSize;
        _blockShift = BitOperations.Log2((uint)_blockSize);
        _maximumBufferSize = options.MaximumBufferSize;
        _zeroOnReturn = options.ZeroOnReturn;
        _throwOnToArray = options.ThrowExceptionOnToArray;
        _maximumStreamCapacity = options.MaximumStreamCapacity;
        _maximumStreamLength = (long)Array.MaxLength << _blockShift;
        _streamWriteLimit = _maximumStreamCapacity != 0 ? Math.Min(_maximumStreamCapacity, _maximumStreamLength) : _maximumStreamLength;
        _guarded = options.Guarded || GuardedMode.IsOnProcessWide;

        string name = options.Name ?? (isShared ? "PooledStreamManager.Shared" : nameof(PooledStreamManager));
        _buffers = StripedArrayPool<byte>.Create(options.ToArrayPoolOptions(name, _guarded));
        if (_guarded || options.TrackLeaks)
        {
            _streams = new ItemGuard<PooledStream>(_buffers.Engine, itemBytes: null, keepStacks: true, GuardFrames, options.MisusePolicy, options.OnMisuse);
        }

        s_managers.Add(this);
    }

    /// <summary>The process-wide manager, with the default options.</summary>
    /// <exception cref="InvalidOperationException">A process setting the shared pool reads (the retained-bytes limit, and for arrays the double-return policy) holds a malformed value; the message names it.</exception>
    public static PooledStreamManager Shared => SharedPool.OrThrow(s_shared, s_createShared);

    /// <summary>The manager's name in events and metrics.</summary>
    public string Name => _buffers.Name;

    /// <summary>The bytes of one block.</summary>
    public int BlockSize => _blockSize;

    /// <summary>The largest buffer the manager keeps in its pool.</summary>
    public int MaximumBufferSize => _maximumBufferSize;

    /// <summary>Whether streams are tracked (guarded mode, or leak tracking).</summary>
    public bool IsTracking => _streams is not null;

    /// <summary>The most bytes one stream may hold, or 0 for no limit but the structural one.</summary>
    public long MaximumStreamCapacity => _maximumStreamCapacity;

    /// <summary>Whether <see cref="PooledStream.ToArray"/> throws.</summary>
    public bool ThrowExceptionOnToArray => _throwOnToArray;

    /// <summary>Bytes of blocks that streams hold now (RecyclableMemoryStream's small pool in use).</summary>
    public long BlockBytesInUse =>
        // Volatile: streams on other threads add and subtract with interlocked operations; a reading is a snapshot.
        Volatile.Read(ref _inUseBytes[0]);

    /// <summary>Bytes of contiguous buffers (from <see cref="PooledStream.GetBuffer"/>) that streams hold now (the large pool in use).</summary>
    public long BufferBytesInUse =>
        // Volatile: as BlockBytesInUse.
        Volatile.Read(ref _inUseBytes[1]);

    /// <summary>Bytes of free blocks the manager keeps for the next streams (the small pool's free bytes).</summary>
    public long BlockBytesFree => _buffers.Engine.CountPooled(SizeClasses.GetIndex(_blockSize)) * _blockSize;

    /// <summary>Bytes of free contiguous buffers the manager keeps (the large pool's free bytes).</summary>
    public long BufferBytesFree => GetStatistics().PooledBytes - BlockBytesFree;

    /// <summary>The most bytes a stream may hold: <see cref="MaximumStreamCapacity"/> when set, else <see cref="MaximumStreamLength"/>.</summary>
    internal long StreamWriteLimit => _streamWriteLimit;

    /// <summary>The longest a stream's position and length may be: <see cref="BlockSize"/> × <see cref="Array.MaxLength"/>.</summary>
    internal long MaximumStreamLength => _maximumStreamLength;

    /// <summary>The pool of the blocks and buffers (tests).</summary>
    internal StripedArrayPool<byte> Buffers => _buffers;

    internal int BlockShift => _blockShift;

    internal int BlockMask => _blockSize - 1;

    /// <summary>Creates a manager with the default options.</summary>
    public static PooledStreamManager Create() => new(new PooledStreamManagerOptions(), isShared: false);

    /// <summary>Creates a manager of <paramref name="options"/>, which are copied and validated now.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static PooledStreamManager Create(PooledStreamManagerOptions options) => new(options, isShared: false);

    /// <summary>Creates an empty stream; no buffer is rented until the first write.</summary>
    public PooledStream GetStream() => new(this, tag: null, requestedSize: 0, contiguous: false);

    /// <summary>Creates an empty stream named by <paramref name="tag"/> in events and <see cref="PooledStream.ToString"/>.</summary>
    public PooledStream GetStream(string? tag) => new(this, tag, requestedSize: 0, contiguous: false);

    /// <summary>Creates an empty stream with room for at least <paramref name="capacity"/> bytes.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative.</exception>
    /// <exception cref="System.IO.IOException"><paramref name="capacity"/> is more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(int capacity) => GetStream(null, capacity);

    /// <summary>Creates an empty stream named by <paramref name="tag"/> with room for at least <paramref name="requiredSize"/> bytes.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="requiredSize"/> is negative.</exception>
    /// <exception cref="System.IO.IOException"><paramref name="requiredSize"/> is more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(string? tag, long requiredSize) => GetStream(tag, requiredSize, asContiguousBuffer: false);

    /// <summary>Creates an empty stream named by <paramref name="tag"/> with room for at least <paramref name="requiredSize"/> bytes, in one contiguous buffer when <paramref name="asContiguousBuffer"/> is true and the size is more than a block.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="requiredSize"/> is negative, or more than <see cref="Array.MaxLength"/> for a contiguous buffer.</exception>
    /// <exception cref="System.IO.IOException"><paramref name="requiredSize"/> is more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(string? tag, long requiredSize, bool asContiguousBuffer)
    {
        if (requiredSize < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(requiredSize), "The capacity must not be negative.");
        }

        bool contiguous = asContiguousBuffer && requiredSize > _blockSize;
        if (contiguous && requiredSize > Array.MaxLength)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(requiredSize), "A contiguous buffer cannot be longer than an array (Array.MaxLength bytes).");
        }

        var stream = new PooledStream(this, tag, requiredSize, contiguous);
        try
        {
            if (contiguous)
            {
                stream.StartWithBuffer((int)requiredSize);
            }
            else
            {
                stream.Capacity64 = requiredSize;
            }
        }
        catch
        {
            stream.Dispose();
            throw;
        }

        return stream;
    }

    /// <summary>Creates a stream holding a copy of <paramref name="contents"/>, positioned at its start.</summary>
    /// <exception cref="System.IO.IOException">The contents are more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(ReadOnlySpan<byte> contents) => GetStream(null, contents);

    /// <summary>Creates a stream holding a copy of <paramref name="buffer"/>, positioned at its start.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="System.IO.IOException">The contents are more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(byte[] buffer) => GetStream(null, buffer, 0, buffer?.Length ?? 0);

    /// <summary>Creates a stream named by <paramref name="tag"/> holding a copy of <paramref name="count"/> bytes of <paramref name="buffer"/> from <paramref name="offset"/>, positioned at its start.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="buffer"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="offset"/> or <paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException">The range is not within <paramref name="buffer"/>.</exception>
    /// <exception cref="System.IO.IOException">The contents are more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(string? tag, byte[] buffer, int offset, int count)
    {
        if (buffer is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(buffer));
        }

        if (offset < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(offset), "The offset must not be negative.");
        }

        if (count < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The count must not be negative.");
        }

        if (count > buffer.Length - offset)
        {
            ThrowHelper.ThrowArgument(nameof(count), "The offset and count describe a range outside the buffer.");
        }

        return GetStream(tag, buffer.AsSpan(offset, count));
    }

    /// <summary>Creates a stream named by <paramref name="tag"/> holding a copy of <paramref name="contents"/>, positioned at its start.</summary>
    /// <exception cref="System.IO.IOException">The contents are more than <see cref="MaximumStreamCapacity"/>.</exception>
    public PooledStream GetStream(string? tag, ReadOnlySpan<byte> contents)
    {
        var stream = new PooledStream(this, tag, contents.Length, contiguous: false);
        try
        {
            stream.Write(contents);
            stream.Position = 0;
        }
        catch
        {
            stream.Dispose();
            throw;
        }

        return stream;
    }

    /// <summary>Where the streams not yet disposed were created (leak tracking or guarded mode; otherwise empty), each also raised as a <c>Leak</c> event.</summary>
    public IReadOnlyList<StackTrace> GetLeaks() => _streams is null ? [] : _streams.GetLeaks();

    /// <summary>Reads the counters of the blocks and buffers pool (exact when the manager is quiet).</summary>
    public PoolStatistics GetStatistics() => _buffers.GetStatistics();

    /// <summary>Releases idle blocks and buffers now, as the periodic trim would, and returns how many.</summary>
    public int Trim() => _buffers.Trim();

    /// <summary>Releases every pooled block and buffer now, whatever its age, and returns how many.</summary>
    public int Clear() => _buffers.Clear();

    /// <summary>A new list of the managers alive now.</summary>
    internal static List<PooledStreamManager> GetLiveManagers() => s_managers.Snapshot();

    internal static long NextStreamId() =>
        // Interlocked: streams are created on any thread at once; each gets its own id.
        Interlocked.Increment(ref s_lastStreamId);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal byte[] RentBlock() => RentBuffer(_blockSize);

    /// <summary>Rents a contiguous buffer of at least <paramref name="length"/> bytes (a size class, or exact past the largest).</summary>
    internal byte[] RentBuffer(int length)
    {
        byte[] buffer = _buffers.Rent(Math.Max(length, _blockSize));
        CountInUse(buffer, buffer.Length);
        return buffer;
    }

    /// <summary>Gives back a block or buffer <paramref name="stream"/> held, its first <paramref name="dirtyBytes"/> zeroed when the manager zeroes; counts it as dropped when <paramref name="abandoned"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void LetGo(PooledStream stream, byte[] buffer, int dirtyBytes, bool abandoned)
    {
        CountInUse(buffer, -buffer.Length);
        if (abandoned)
        {
            _buffers.Abandon(buffer);
            return;
        }

        if (_zeroOnReturn)
        {
            buffer.AsSpan(0, Math.Clamp(dirtyBytes, 0, buffer.Length)).Clear();
        }

        if (!_buffers.ReturnKept(buffer))
        {
            OnDiscarded(stream, buffer);
        }
    }

    /// <summary>Counts <paramref name="bytes"/> of <paramref name="array"/> in or out of use, as a block or a buffer.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CountInUse(byte[] array, long bytes) =>
        // Interlocked: streams on every thread rent and return at once; the readings must add up when they stop.
        Interlocked.Add(ref _inUseBytes[array.Length == _blockSize ? 0 : 1], bytes);
}
