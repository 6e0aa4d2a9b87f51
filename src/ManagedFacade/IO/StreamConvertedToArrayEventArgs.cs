using System.Diagnostics;

namespace NativePool;

/// <summary>The data of <see cref="PooledStreamManager.StreamConvertedToArray"/>: a <see cref="PooledStream.ToArray"/> call.</summary>
public sealed class StreamConvertedToArrayEventArgs : StreamEventArgs
{
    internal StreamConvertedToArrayEventArgs(long id, string? tag, long length, StackTrace? stack)
        : base(id, tag)
    {
        Length = length;
        Stack = stack;
    }

    /// <summary>The stream's length: the bytes <see cref="PooledStream.ToArray"/> copies (or would, when it throws).</summary>
    public long Length { get; }

    /// <summary>Where <see cref="PooledStream.ToArray"/> was called, when the manager tracks streams (<see cref="PooledStreamManagerOptions.TrackLeaks"/> or guarded mode); otherwise null.</summary>
    public StackTrace? Stack { get; }
}
