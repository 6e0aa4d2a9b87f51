namespace NativePool.Tests.Memory;

/// <summary>The contract against small independent instances: one stripe, two buffers per stripe, no trimming.</summary>
public sealed class StripedMemoryPoolInstanceContractTests : MemoryPoolContractTests
{
    private const int MaximumBufferLength = 1 << 20;

    /// <summary>The configured maximum buffer length.</summary>
    protected override int ExpectedMaxBufferSize => MaximumBufferLength;

    protected override MemoryPool<byte> CreatePool() => StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions
    {
        StripeCount = 1,
        ItemsPerStripe = 2,
        TrimmingEnabled = false,
        MaximumBufferLength = MaximumBufferLength,
    });
}
