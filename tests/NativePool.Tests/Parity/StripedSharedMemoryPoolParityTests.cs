namespace NativePool.Tests.Parity;

/// <summary>The memory-pool parity suite against <see cref="StripedMemoryPool{T}.Shared"/>.</summary>
public sealed class StripedSharedMemoryPoolParityTests : MemoryPoolParityTests
{
    protected override MemoryPool<int> SharedPool() => StripedMemoryPool<int>.Shared;

    protected override MemoryPool<int> CreatePool() => StripedMemoryPool<int>.Shared;
}
