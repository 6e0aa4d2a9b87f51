using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// The base of the object suites: the three peers' pools (created prefilled by <see cref="ObjectPools"/>) as adapter
/// structs, the background threads of the multi-threaded suites, and their teardown.
/// </summary>
public abstract class ObjectSuite
{
    private TeddStyleObjectPool<PooledObject>? _teddStyle;
    private StripedObjectPool<PooledObject>? _striped;
    private BackgroundLoad? _load;

    /// <summary>Microsoft's pool (the baseline).</summary>
    protected MicrosoftObjects DefaultPool { get; private set; }

    /// <summary>The Tedd-style per-thread-cache pool.</summary>
    protected TeddStyleObjects TeddStylePool { get; private set; }

    /// <summary>Ours.</summary>
    protected StripedObjects StripedPool { get; private set; }

    /// <summary>Ours, called through the abstract <c>ObjectPool&lt;T&gt;</c> as code that resolves it from DI calls it.</summary>
    protected MicrosoftObjects StripedAsObjectPool { get; private set; }

    [GlobalCleanup]
    public void Cleanup()
    {
        _load?.Dispose();
        _teddStyle?.Dispose();
        _striped?.Dispose();
    }

    /// <summary>Creates every peer's pool retaining <paramref name="retained"/>, prefilled.</summary>
    protected void CreatePools(int retained)
    {
        DefaultPool = new MicrosoftObjects(ObjectPools.Default(retained));
        _teddStyle = ObjectPools.TeddStyle(retained);
        TeddStylePool = new TeddStyleObjects(_teddStyle);
        _striped = ObjectPools.Striped(retained);
        StripedPool = new StripedObjects(_striped);
        StripedAsObjectPool = new MicrosoftObjects(_striped);
    }

    /// <summary>Starts <paramref name="threads"/> background threads looping <paramref name="body"/> (see <see cref="BackgroundLoad"/>).</summary>
    protected void StartLoad(int threads, Action<int, Random> body) => _load = BackgroundLoad.Start(threads, body);
}
