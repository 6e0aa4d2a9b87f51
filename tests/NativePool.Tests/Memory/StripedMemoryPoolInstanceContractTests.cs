namespace NativePool.Tests.Memory;

/// <summary>The contract against small independent instances: one stripe, two buffers per stripe, no trimming.</summary>
public sealed class StripedMemoryPoolInstanceContractTests : MemoryPoolContractTests
{
    protected override MemoryPool<byte> CreatePool() => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions
    {
        StripeCount = 1,
        ItemsPerStripe = 2,
        TrimmingEnabled = false,
        MaximumBufferLength = 1 << 20,
    });
}
