namespace NativePool.Tests.Parity;

/// <summary>The memory-pool parity suite against a fresh <see cref="StripedMemoryPool{T}"/> per test.</summary>
public sealed class StripedInstanceMemoryPoolParityTests : MemoryPoolParityTests
{
    protected override MemoryPool<int> SharedPool() => StripedMemoryPool<int>.Shared;

    protected override MemoryPool<int> CreatePool() =>
        StripedMemoryPool<int>.Create(new StripedMemoryPoolOptions { MaximumBufferLength = 1 << 20, TrimmingEnabled = false });
}
