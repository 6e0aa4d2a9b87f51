namespace NativePool.Tests.ArrayPool;

/// <summary>
/// Every pool indexes the same per-thread cache table by its id, so ids must be unique across element types, not just
/// within one: two pools of different element types sharing an id would read each other's thread caches as their own
/// and hand out arrays of the wrong type.
/// </summary>
public class PoolIdentityTests
{
    // Element types no other test uses, so each one's first pool is created here.
    private readonly record struct FirstMarker(int Value);

    private readonly record struct SecondMarker(long Value);

    [Fact]
    public void PoolsOfDifferentElementTypesHaveDifferentIds()
    {
        var bytes = StripedArrayPool<byte>.Create();
        var chars = StripedArrayPool<char>.Create();
        var objects = StripedArrayPool<object>.Create();
        int[] ids = [bytes.Engine.Id, chars.Engine.Id, objects.Engine.Id, StripedArrayPool<int>.Shared.Engine.Id];
        Assert.Equal(ids.Length, ids.Distinct().Count());
    }

    [Fact]
    public void PoolsOfDifferentElementTypesNeverShareAThreadCache()
    {
        TestThreads.RunOnNewThread(() =>
        {
            var first = StripedArrayPool<FirstMarker>.Create();
            var second = StripedArrayPool<SecondMarker>.Create();

            FirstMarker[] parked = first.Rent(16);
            first.Return(parked);

            // With a shared id this would be the FirstMarker[] parked in the thread cache, typed as SecondMarker[].
            SecondMarker[] rented = second.Rent(16);
            Assert.Equal(typeof(SecondMarker[]), rented.GetType());
            second.Return(rented);
            Assert.Same(parked, first.Rent(16));
        });
    }
}
