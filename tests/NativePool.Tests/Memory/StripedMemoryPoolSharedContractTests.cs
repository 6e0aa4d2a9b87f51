namespace NativePool.Tests.Memory;

/// <summary>The contract against <see cref="StripedMemoryPool{T}.Shared"/> (whose Dispose does nothing).</summary>
public sealed class StripedMemoryPoolSharedContractTests : MemoryPoolContractTests
{
    protected override MemoryPool<byte> CreatePool() => StripedMemoryPool<byte>.Shared;

    /// <summary>The default maximum buffer length.</summary>
    protected override int ExpectedMaxBufferSize => 1 << 30;
}
