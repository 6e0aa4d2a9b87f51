using NativePool.Samples.PipelinesChecksum;

namespace NativePool.IntegrationTests;

/// <summary>System.IO.Pipelines with <c>PipeOptions.Pool</c> set to our pool: every byte arrives intact.</summary>
public sealed class PipelinesTests
{
    [Fact]
    public async Task TwoHundredFiftySixMebibytesCrossAPipeOnTheSharedPoolWithEveryByteVerified()
    {
        const long Total = 256L << 20;
        ChecksumPipe.Result result = await ChecksumPipe.RunAsync(StripedMemoryPool<byte>.Shared, Total);
        Assert.Equal(Total, result.Bytes);
        Assert.Equal(-1, result.FirstMismatch);
        Assert.Equal(result.WriterChecksum, result.ReaderChecksum);

        // The pipe's segments came from the pool and went back to it (other tests may use Shared too: a lower bound).
        Assert.True(StripedMemoryPool<byte>.Shared.GetStatistics().Pooled > 0);
    }

    [Theory]
    [InlineData(4096)]
    [InlineData(100_000)]
    public async Task ASmallPoolCarriesTheStreamAndEndsBalanced(int segmentSize)
    {
        using var pool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { StripeCount = 2, ItemsPerStripe = 4, TrimmingEnabled = false });
        ChecksumPipe.Result result = await ChecksumPipe.RunAsync(pool, 16L << 20, segmentSize);
        Assert.Equal(-1, result.FirstMismatch);
        Assert.Equal(result.WriterChecksum, result.ReaderChecksum);

        PoolStatistics stats = pool.GetStatistics();
        Assert.True(stats.Allocated > 0 && stats.Pooled > 0, stats.ToString());
        Assert.Equal(0, stats.Outstanding);
        Assert.True(stats.IsConserved, stats.ToString());
    }
}
