namespace NativePool.Tests;

public class SmokeTests
{
    [Fact]
    public void RentingAfterReturnGivesBackTheSameArray()
    {
        var pool = StripedArrayPool<byte>.Create();
        byte[] first = pool.Rent(100);
        pool.Return(first);
        Assert.Same(first, pool.Rent(100));
    }
}
