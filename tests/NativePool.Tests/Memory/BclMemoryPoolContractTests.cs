namespace NativePool.Tests.Memory;

/// <summary>The reference: <see cref="MemoryPool{T}.Shared"/> must pass every rule of the contract.</summary>
public sealed class BclMemoryPoolContractTests : MemoryPoolContractTests
{
    protected override MemoryPool<byte> CreatePool() => MemoryPool<byte>.Shared;

    /// <summary>The longest array the runtime allocates.</summary>
    protected override int ExpectedMaxBufferSize => Array.MaxLength;
}
