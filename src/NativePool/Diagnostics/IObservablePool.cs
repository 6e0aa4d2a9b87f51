namespace NativePool;

/// <summary>What the metrics read from a pool when they are observed: its identity and its counters.</summary>
internal interface IObservablePool
{
    /// <summary>The pool's id in events (unique among live pools).</summary>
    public int Id { get; }

    /// <summary>The pool's name (the <c>nativepool.pool.name</c> tag).</summary>
    public string Name { get; }

    /// <summary>What the pool hands out: <c>array</c>, <c>memory</c>, <c>object</c>, <c>native</c> or <c>stream</c> (the <c>nativepool.pool.kind</c> tag).</summary>
    public string Kind { get; }

    /// <summary>The number of size classes.</summary>
    public int ClassCount { get; }

    /// <summary>Bytes one item of <paramref name="sizeClass"/> holds (0 for objects).</summary>
    public long GetItemBytes(int sizeClass);

    /// <summary>A snapshot of the whole pool's counters.</summary>
    public PoolCounts ReadCounts();

    /// <summary>A snapshot of the items of <paramref name="sizeClass"/> the pool holds (stripes, thread slots and magazines).</summary>
    public long CountPooled(int sizeClass);

    /// <summary>Counts one misuse the pool reported (<see cref="PoolCounts.Misuses"/>); a misuse the policy ignores is not counted.</summary>
    /// <remarks>Called from the reporting path of any thread; the count is kept with one interlocked increment.</remarks>
    public void CountMisuse();
}
