namespace NativePool.Tests.Engine;

/// <summary>
/// Every disposable facade (objects, memory, native blocks) ends through the engine's one shutdown: it leaves the
/// registry the metrics read, its engine is shut down, and a second dispose changes nothing.
/// </summary>
public sealed class LifecycleTests
{
    public static TheoryData<string> Facades => new() { "object", "memory", "native" };

    [Theory]
    [MemberData(nameof(Facades))]
    public void DisposingAPoolShutsItsEngineDownAndUnregistersItOnce(string facade)
    {
        (IDisposable pool, IObservablePool engine, Func<bool> isShutDown) = Create(facade);
        Assert.Contains(engine, PoolRegistry.GetLivePools());
        Assert.False(isShutDown());

        pool.Dispose();
        pool.Dispose();

        Assert.True(isShutDown());
        Assert.DoesNotContain(engine, PoolRegistry.GetLivePools());
    }

    private static (IDisposable Pool, IObservablePool Engine, Func<bool> IsShutDown) Create(string facade)
    {
        switch (facade)
        {
            case "object":
                var objects = new StripedObjectPool<object>(static () => new object(), null, new StripedObjectPoolOptions());
                return (objects, objects.Engine, () => objects.Engine.IsShutDown);
            case "memory":
                var memory = StripedMemoryPool<byte>.Create();
                return (memory, memory.Engine, () => memory.Engine.IsShutDown);
            default:
                var native = NativeBlockPool.Create();
                return (native, native.Core.Engine, () => native.Core.Engine.IsShutDown);
        }
    }
}
