using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// Hands out <see cref="PooledStream"/>s whose contents live in pooled, pinned byte arrays of the NativePool engine: a
/// list of fixed-size blocks while the stream grows, one contiguous buffer once someone asks for it
/// (<see cref="PooledStream.GetBuffer"/>). Use <see cref="Shared"/>, or <see cref="Create(PooledStreamManagerOptions)"/>
/// for a manager of your own shape.
/// </summary>
/// <remarks>
/// <para>
/// Storage. Blocks and buffers come from one <see cref="StripedArrayPool{T}"/> of bytes per manager (named as the
/// manager, kind <c>stream</c> in the metrics), so what the streams give back is retained, bounded per size class,
/// trimmed after gen-2 GCs, on a timer and under memory pressure, counted by the <c>NativePool</c> meter and reported by
/// the <c>NativePool</c> event source exactly as the pools' own items are. Buffers longer than
/// <see cref="MaximumBufferSize"/> are allocated at their exact length and dropped when the stream is disposed.
/// </para>
/// <para>
/// Diagnostics. A second <c>Dispose</c> of a stream raises the <c>DoubleReturn</c> event; in guarded mode it is misuse,
/// handled per <see cref="PooledStreamManagerOptions.MisusePolicy"/> (by default it throws). With leak tracking or
/// guarded mode, <see cref="GetLeaks"/> names where each stream not yet disposed was created. <c>ToArray</c> on a stream
/// long enough for the large object heap raises the <c>StreamCopiedToArray</c> event.
/// </para>
/// <para>
/// Concurrency: any number of threads may create and dispose streams at once; the manager never blocks outside guarded
/// and leak-tracking modes (which take a lock per stream created and disposed). A stream itself is for one thread at a
/// time, as a <see cref="System.IO.MemoryStream"/> is; only its disposal is safe to race.
/// </para>
/// </remarks>
public sealed class PooledStreamManager
{
    private static readonly PooledStreamManager s_shared = new(new PooledStreamManagerOptions(), isShared: true);

    /// <summary>The frames a stream's creation stack leaves out: the item guard's, <see cref="OnStreamCreated"/> and the stream's constructor.</summary>
    private const int GuardFrames = 3;

    private readonly StripedArrayPool<byte> _buffers;
    private readonly int _blockSize;
    private readonly int _blockShift;
    private readonly int _maximumBufferSize;
    private readonly bool _zeroOnReturn;
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
        _guarded = options.Guarded || GuardedMode.IsOnProcessWide;

        string name = options.Name ?? (isShared ? "PooledStreamManager.Shared" : nameof(PooledStreamManager));
        _buffers = StripedArrayPool<byte>.Create(options.ToArrayPoolOptions(name, _guarded));
        _buffers.Engine.Kind = "stream";
        if (_guarded || options.TrackLeaks)
        {
            _streams = new ItemGuard<PooledStream>(_buffers.Engine, itemBytes: null, keepStacks: true, GuardFrames, options.MisusePolicy, options.OnMisuse);
        }
    }

    /// <summary>The process-wide manager, with the default options.</summary>
    public static PooledStreamManager Shared => s_shared;

    /// <summary>The manager's name in events and metrics.</summary>
    public string Name => _buffers.Name;

    /// <summary>The bytes of one block.</summary>
    public int BlockSize => _blockSize;

    /// <summary>The largest buffer the manager keeps in its pool.</summary>
    public int MaximumBufferSize => _maximumBufferSize;

    /// <summary>Whether streams are tracked (guarded mode, or leak tracking).</summary>
    public bool IsTracking => _streams is not null;

    /// <summary>The pool of the blocks and buffers (tests).</summary>
    internal StripedArrayPool<byte> Buffers => _buffers;

    /// <summary>log2 of <see cref="BlockSize"/>.</summary>
    internal int BlockShift => _blockShift;

    /// <summary>Creates a manager with the default options.</summary>
    /// <returns>A new manager.</returns>
    public static PooledStreamManager Create() => new(new PooledStreamManagerOptions(), isShared: false);

    /// <summary>Creates a manager.</summary>
    /// <param name="options">The shape of the manager; copied and validated now.</param>
    /// <returns>A new manager.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static PooledStreamManager Create(PooledStreamManagerOptions options) => new(options, isShared: false);

    /// <summary>Creates an empty stream; no buffer is rented until the first write.</summary>
    /// <returns>A stream to dispose when done (disposing returns its buffers).</returns>
    public PooledStream GetStream() => new(this);

    /// <summary>Creates an empty stream with room for at least <paramref name="capacity"/> bytes.</summary>
    /// <param name="capacity">The bytes to make room for, 0 or more.</param>
    /// <returns>A stream to dispose when done.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is negative.</exception>
    public PooledStream GetStream(int capacity)
    {
        if (capacity < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(capacity), "The capacity must not be negative.");
        }

        var stream = new PooledStream(this);
        stream.Capacity = capacity;
        return stream;
    }

    /// <summary>Creates a stream holding a copy of <paramref name="contents"/>, positioned at its start.</summary>
    /// <param name="contents">The bytes to copy in.</param>
    /// <returns>A stream to dispose when done.</returns>
    public PooledStream GetStream(ReadOnlySpan<byte> contents)
    {
        var stream = new PooledStream(this);
        stream.Write(contents);
        stream.Position = 0;
        return stream;
    }

    /// <summary>Where the streams created and not yet disposed were created (leak tracking or guarded mode; otherwise empty).</summary>
    /// <returns>One creation stack per such stream; each is also raised as a <c>Leak</c> event of the <c>NativePool</c> event source.</returns>
    public IReadOnlyList<StackTrace> GetLeaks() => _streams is null ? [] : _streams.GetLeaks();

    /// <summary>Reads the counters of the blocks and buffers pool (exact when the manager is quiet).</summary>
    /// <returns>A snapshot: items are blocks and buffers, bytes are their bytes.</returns>
    public PoolStatistics GetStatistics() => _buffers.GetStatistics();

    /// <summary>Releases idle blocks and buffers now, as the periodic trim would.</summary>
    /// <returns>How many were released.</returns>
    public int Trim() => _buffers.Trim();

    /// <summary>Releases every pooled block and buffer now, whatever its age.</summary>
    /// <returns>How many were released.</returns>
    public int Clear() => _buffers.Clear();

    /// <summary>Rents a block.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal byte[] RentBlock() => _buffers.Rent(_blockSize);

    /// <summary>Rents a contiguous buffer of at least <paramref name="length"/> bytes (a size class, or exact past the largest).</summary>
    internal byte[] RentBuffer(int length) => _buffers.Rent(Math.Max(length, _blockSize));

    /// <summary>Gives a block or buffer back, zeroing its first <paramref name="dirtyBytes"/> first when the manager zeroes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Return(byte[] buffer, int dirtyBytes)
    {
        if (_zeroOnReturn)
        {
            buffer.AsSpan(0, Math.Clamp(dirtyBytes, 0, buffer.Length)).Clear();
        }

        _buffers.Return(buffer);
    }

    /// <summary>A stream was created: remembered with its stack when streams are tracked.</summary>
    internal void OnStreamCreated(PooledStream stream) => _streams?.OnRent(stream, out _);

    /// <summary>A stream was disposed for the first time.</summary>
    internal void OnStreamDisposed(PooledStream stream) => _streams?.OnReturn(stream, cleared: false);

    /// <summary>A stream was disposed again: the event, and in guarded mode the misuse policy.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    internal void OnDoubleDispose(PooledStream stream)
    {
        if (_guarded && _streams is not null)
        {
            _streams.Report(PoolMisuseKind.DoubleReturn, stream, rentStack: null);
        }
        else if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.DoubleReturn(NativePoolEventSource.ItemId(stream), 0, _buffers.Engine.Id, Name);
        }
    }

    /// <summary>A stream was copied into a new array: the event when the array lands on the large object heap.</summary>
    internal void OnCopiedToArray(PooledStream stream, int length)
    {
        // The runtime's large object heap threshold: arrays of this many bytes or more are allocated there.
        const int LargeObjectBytes = 85_000;
        if (length >= LargeObjectBytes && NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.StreamCopiedToArray(NativePoolEventSource.ItemId(stream), length, _buffers.Engine.Id, Name);
        }
    }
}
