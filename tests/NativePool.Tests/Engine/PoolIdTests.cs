namespace NativePool.Tests.Engine;

/// <summary>Pool ids index every thread's cache table, so they must be unique across element types, not per type.</summary>
public sealed class PoolIdTests
{
    [Fact]
    public void PoolsOfDifferentElementTypesNeverShareAnId()
    {
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var strings = new StripedPool<string>(settings, static _ => "created");
        var lists = new StripedPool<List<int>>(settings, static _ => []);

        Assert.NotEqual(strings.Id, lists.Id);
    }

    [Fact]
    public void AnItemParkedInOnePoolNeverComesOutOfAPoolOfAnotherType()
    {
        var settings = new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false };
        var strings = new StripedPool<string>(settings, static _ => "created");
        var lists = new StripedPool<List<int>>(settings, static _ => []);
        strings.Return(0, "parked");

        List<int> list = lists.Rent(0);

        Assert.IsType<List<int>>(list);
        Assert.Equal("parked", strings.Rent(0));
    }

    [Fact]
    public void ArrayPoolsOfDifferentElementTypesKeepTheirOwnArrays()
    {
        var bytes = StripedArrayPool<byte>.Create();
        var chars = StripedArrayPool<char>.Create();
        bytes.Return(bytes.Rent(100));

        char[] rented = chars.Rent(100);

        Assert.IsType<char[]>(rented);
        chars.Return(rented);
    }
}
