namespace NativePool;

/// <summary>Why a <see cref="PooledStreamManager"/> let go of a block or buffer a stream gave back.</summary>
public enum StreamBufferDiscardReason
{
    /// <summary>The buffer is longer than <see cref="PooledStreamManager.MaximumBufferSize"/>; such buffers are never kept.</summary>
    TooLarge = 0,

    /// <summary>The pool already keeps as many of its size as it may (<see cref="StripedPoolOptions.MaximumRetainedBytesPerSizeClass"/>, the stripes, or the process-wide byte budget).</summary>
    EnoughFree = 1,
}
