using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace NativePool;

/// <summary>What few streams need — an id once read, a tag, the buffer writer's grant, retired storage — lives in one object made on first need, so a stream that is written, read and disposed is as small as the base class allows.</summary>
public sealed partial class PooledStream
{
    /// <summary>The extra state, or null until something needs it.</summary>
    private Extras? _extras;

    /// <summary>Where the memory last handed out by <see cref="GetSpan"/> or <see cref="GetMemory"/> lives.</summary>
    private enum GrantKind
    {
        /// <summary>In the storage at the position: <see cref="Advance"/> only moves the position and length.</summary>
        InPlace,

        /// <summary>A pooled buffer standing in for a request that does not fit contiguously: <see cref="Advance"/> copies it in and returns it.</summary>
        Rented,

        /// <summary>Storage the stream has since moved away from (retired, still the stream's): <see cref="Advance"/> copies it in.</summary>
        Detached,
    }

    /// <summary>The extra state, made now if it is not there yet.</summary>
    private Extras GetExtras()
    {
        // Volatile: pairs with the publishing compare-exchange below, on this thread or one reading Id or Tag.
        if (Volatile.Read(ref _extras) is { } extras)
        {
            return extras;
        }

        // Interlocked: Id may be read on another thread while a member makes the state; one object is published for both.
        return Interlocked.CompareExchange(ref _extras, new Extras(), null) ?? _extras!;
    }

    /// <summary>The stream's id, given on first read.</summary>
    private long GetId()
    {
        Extras extras = GetExtras();
        // Volatile: pairs with the compare-exchange below; another thread may have given the id.
        long id = Volatile.Read(ref extras.Id);
        if (id != 0)
        {
            return id;
        }

        // Interlocked: two threads reading the id first agree on one.
        long assigned = Interlocked.CompareExchange(ref extras.Id, PooledStreamManager.NextStreamId(), 0);
        return assigned != 0 ? assigned : extras.Id;
    }

    /// <summary>The time since the stream was created, if <see cref="RecordCreationTime"/> took it.</summary>
    internal TimeSpan? Lifetime =>
        // Volatile: as for Tag.
        Volatile.Read(ref _extras) is { CreatedAt: not 0 } extras ? Stopwatch.GetElapsedTime(extras.CreatedAt) : null;

    /// <summary>Takes the creation time, for the <see cref="PooledStreamManager.StreamDisposed"/> event's lifetime.</summary>
    internal void RecordCreationTime() => GetExtras().CreatedAt = Stopwatch.GetTimestamp();

    /// <summary>Where the stream was created and first disposed, kept at its first <c>Dispose</c> for a <see cref="PooledStreamManager.StreamDoubleDisposed"/> event; nulls before.</summary>
    internal (StackTrace? Allocation, StackTrace? Dispose) DisposalStacks
    {
        // Volatile: as for Tag.
        get => Volatile.Read(ref _extras)?.DisposalStacks ?? default;
        set => GetExtras().DisposalStacks = value;
    }

    /// <summary>The extra state of one stream (mutable: do not make it a struct).</summary>
    private sealed class Extras
    {
        /// <summary>The stream's id once read (0 before).</summary>
        public long Id;

        /// <summary>The stream's tag.</summary>
        public string? Tag;

        /// <summary>Storage the stream moved away from (blocks, outgrown buffers) with the bytes written into each; given back on <c>Dispose</c>.</summary>
        public List<(byte[] Array, int Dirty)>? Retired;

        // The memory last handed out: its array (or null), where it starts in it, the bytes not yet advanced past (-1:
        // none handed out), the stream position it stands for, and where it lives.
        public byte[]? GrantArray;
        public int GrantOffset;
        public int Granted = -1;
        public long GrantPosition;
        public GrantKind GrantKind;

        /// <summary>Set by a <c>Dispose</c> that left the storage to a member holding a claim: finalized with the stream.</summary>
        public CollectionWatch? Watch;

        /// <summary>The <see cref="Stopwatch"/> timestamp of the stream's creation, when taken (0 otherwise).</summary>
        public long CreatedAt;

        /// <summary>See <see cref="PooledStream.DisposalStacks"/>.</summary>
        public (StackTrace? Allocation, StackTrace? Dispose) DisposalStacks;
    }

    /// <summary>Finalized with its stream, so that <see cref="OnCollected"/> counts storage a claimed member never released as dropped.</summary>
    /// <remarks>Made only by a <c>Dispose</c> that met a claim, since <c>Dispose</c> suppresses the stream's own finalizer.</remarks>
    private sealed class CollectionWatch(PooledStream stream)
    {
        ~CollectionWatch() => stream.OnCollected();
    }
}
