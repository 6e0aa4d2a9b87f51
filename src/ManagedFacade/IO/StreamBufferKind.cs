namespace NativePool;

/// <summary>What a <see cref="PooledStream"/>'s storage is made of (RecyclableMemoryStream's small and large pools).</summary>
public enum StreamBufferKind
{
    /// <summary>A block of <see cref="PooledStreamManager.BlockSize"/> bytes.</summary>
    Block = 0,

    /// <summary>A contiguous buffer (from <see cref="PooledStream.GetBuffer"/>, a contiguous <c>GetStream</c>, or memory handed out by the buffer writer).</summary>
    Buffer = 1,
}
