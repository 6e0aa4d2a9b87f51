namespace NativePool.Tests.Parity;

/// <summary>The memory-pool parity suite against <see cref="MemoryPool{T}.Shared"/>: the control.</summary>
public sealed class BclMemoryPoolParityTests : MemoryPoolParityTests
{
    protected override MemoryPool<int> SharedPool() => MemoryPool<int>.Shared;

    protected override MemoryPool<int> CreatePool() => MemoryPool<int>.Shared;
}
