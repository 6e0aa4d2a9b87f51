using System;
using System.Diagnostics;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamConvertedToArray"/>: a <see cref="PooledStream.ToArray"/> call.</summary>
public sealed class StreamConvertedToArrayEventArgs : EventArgs
{
    internal StreamConvertedToArrayEventArgs(long id, string? tag, long length, StackTrace? stack)
    {
        Id = id;
        Tag = tag;
        Length = length;
        Stack = stack;
    }

    /// <summary>The stream's <see cref="PooledStream.Id"/>.</summary>
    public long Id { get; }

    /// <summary>The stream's <see cref="PooledStream.Tag"/>, or null.</summary>
    public string? Tag { get; }

    /// <summary>The stream's length: the bytes <see cref="PooledStream.ToArray"/> copies (or would, when it throws).</summary>
    public long Length { get; }

    /// <summary>Where <see cref="PooledStream.ToArray"/> was called, when the manager tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/> or guarded mode); otherwise null.</summary>
    public StackTrace? Stack { get; }
}
