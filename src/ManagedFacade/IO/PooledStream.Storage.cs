using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>The storage: growing the blocks or the buffer, moving into one buffer, and giving everything back once.</summary>
public sealed partial class PooledStream
{
    // The streams' own pool of block lists, so that a malformed setting of StripedArrayPool<T>.Shared (its double-return
    // policy) leaves every stream working; null when a setting that streams do read is malformed (see SharedPool).
    private static readonly Func<StripedArrayPool<byte[]?>> s_createBlockLists = static () =>
        StripedArrayPool<byte[]?>.Create(new StripedArrayPoolOptions { Name = "PooledStream block lists" });

    private static readonly StripedArrayPool<byte[]?>? s_blockLists = SharedPool.TryCreate(s_createBlockLists);

    /// <summary>The pool every stream rents its block list from.</summary>
    /// <exception cref="InvalidOperationException">A process setting that stream managers read is malformed.</exception>
    private static StripedArrayPool<byte[]?> BlockLists => SharedPool.OrThrow(s_blockLists, s_createBlockLists);

    /// <summary>Rents storage until the capacity is at least <paramref name="capacity"/> bytes; the caller holds the writer's claim.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EnsureCapacity(long capacity)
    {
        CheckCapacity(capacity);
        if (capacity <= CurrentCapacity)
        {
            return;
        }

        if (_buffer is not null)
        {
            if (capacity > Array.MaxLength)
            {
                ThrowHelper.ThrowIO("The stream's contiguous buffer cannot grow past the longest array.");
            }

            MoveToBuffer((int)capacity);
            return;
        }

        int needed = (int)((capacity + BlockMask) >> BlockShift);
        if (_blocks is null || _blocks.Length < needed)
        {
            byte[]?[] blocks = BlockLists.Rent(Math.Max(needed, 4));
            if (_blocks is not null)
            {
                _blocks.AsSpan(0, _blockCount).CopyTo(blocks);
                BlockLists.Return(_blocks, clearArray: true);
            }

            _blocks = blocks;
        }

        while (_blockCount < needed)
        {
            _blocks[_blockCount] = _manager.RentBlock();
            _blockCount++;
        }
    }

    /// <summary>Makes the storage of a new, empty stream one buffer of at least <paramref name="capacity"/> bytes, renting no block.</summary>
    /// <exception cref="System.IO.IOException"><paramref name="capacity"/> is more than the manager allows.</exception>
    internal void StartWithBuffer(int capacity)
    {
        using WriterClaim claim = EnterWriter();
        CheckCapacity(capacity);
        MoveToBuffer(capacity);
    }

    /// <summary>Throws when the stream may not hold <paramref name="capacity"/> bytes: past the manager's <see cref="PooledStreamManagerOptions.MaximumStreamCapacity"/> (with its event) or the longest stream.</summary>
    private void CheckCapacity(long capacity)
    {
        if (capacity > WriteLimit)
        {
            if (capacity > MaximumLength)
            {
                ThrowHelper.ThrowIO("Stream was too long.");
            }

            _manager.ThrowOverCapacity(this, capacity);
        }
    }

    /// <summary>Moves the contents into one buffer of at least <paramref name="capacity"/> bytes; the caller holds the writer's claim.</summary>
    /// <remarks>The old storage is retired until <c>Dispose</c>; memory from <see cref="GetMemory"/> not yet advanced is detached, and <see cref="Advance"/> copies it in.</remarks>
    private void MoveToBuffer(int capacity)
    {
        byte[] buffer = _manager.RentBuffer(capacity);
        CopyOut(0, buffer.AsSpan(0, (int)_length));
        DetachGrant();
        if (_buffer is { } old)
        {
            (GetExtras().Retired ??= []).Add((old, DirtyBytes(old, 0, _dirty)));
        }
        else if (_blocks is { } blocks)
        {
            List<(byte[] Array, int Dirty)> retired = GetExtras().Retired ??= [];
            for (int i = 0; i < _blockCount; i++)
            {
                retired.Add((blocks[i]!, DirtyBytes(blocks[i]!, (long)i << BlockShift, _dirty)));
            }

            _blocks = null;
            _blockCount = 0;
            BlockLists.Return(blocks, clearArray: true);
        }

        _buffer = buffer;
        _dirty = _length;
    }

    /// <summary>Gives all storage back, once, when no member holds a claim; for a collected stream (<paramref name="abandoned"/>) counts it as dropped.</summary>
    /// <remarks>Abandoned storage is never pooled: a buffer or sequence handed out may still be referenced elsewhere.</remarks>
    private void ReleaseStorage(bool abandoned = false)
    {
        long dirty = _dirty;
        ReleaseGrant(abandoned);
        if (_buffer is { } buffer)
        {
            _buffer = null;
            _manager.LetGo(this, buffer, DirtyBytes(buffer, 0, dirty), abandoned);
        }

        if (_blocks is { } blocks)
        {
            _blocks = null;
            for (int i = 0; i < _blockCount; i++)
            {
                _manager.LetGo(this, blocks[i]!, DirtyBytes(blocks[i]!, (long)i << BlockShift, dirty), abandoned);
            }

            _blockCount = 0;
            if (abandoned)
            {
                BlockLists.Abandon(blocks);
            }
            else
            {
                BlockLists.Return(blocks, clearArray: true);
            }
        }

        if (_extras is { Retired: { } retired } extras)
        {
            extras.Retired = null;
            foreach ((byte[] array, int dirtyBytes) in retired)
            {
                _manager.LetGo(this, array, dirtyBytes, abandoned);
            }
        }

        _dirty = 0;
        _length = 0;
        _position = 0;
    }

    /// <summary>The bytes of <paramref name="array"/>, at <paramref name="start"/> in the storage, within its first <paramref name="dirty"/> bytes.</summary>
    private static int DirtyBytes(byte[] array, long start, long dirty) => (int)Math.Clamp(dirty - start, 0, array.Length);
}
