using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using Microsoft.Extensions.Options;

namespace NativePool.Tests.ObjectPool;

/// <summary>Every bad input of every public member of the object pool: a documented exception, and the pool unharmed.</summary>
public sealed class StripedObjectPoolMisuseTests
{
    private static readonly Dictionary<string, Case> s_cases = new()
    {
        ["policy constructor, null policy"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>((IPooledObjectPolicy<Thing>)null!), "policy"),
        ["policy constructor, null policy with bound"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>((IPooledObjectPolicy<Thing>)null!, 4), "policy"),
        ["policy constructor, bound 0"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 0), "maximumRetained"),
        ["policy constructor, bound -1"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), -1), "maximumRetained"),
        ["policy constructor, bound int.MinValue"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), int.MinValue), "maximumRetained"),
        ["policy constructor, bound above the limit"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), StripedObjectPool<Thing>.MaximumRetainedLimit + 1), "maximumRetained"),
        ["factory constructor, null factory"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>(null!, null, new StripedObjectPoolOptions()), "factory"),
        ["factory constructor, null factory with cleanup"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>(null!, static _ => { }, new StripedObjectPoolOptions { MaximumRetained = 4, DisposeItems = true }), "factory"),
        ["factory constructor, null options"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>(static () => new Thing(), null, null!), "options"),
        ["factory constructor, bound 0"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(static () => new Thing(), null, new StripedObjectPoolOptions { MaximumRetained = 0 }), "MaximumRetained"),
        ["factory constructor, bound -5"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(static () => new Thing(), null, new StripedObjectPoolOptions { MaximumRetained = -5 }), "MaximumRetained"),
        ["options constructor, null policy"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>((IPooledObjectPolicy<Thing>)null!, new StripedObjectPoolOptions()), "policy"),
        ["options constructor, null options"] = Case.Of<ArgumentNullException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), (StripedObjectPoolOptions)null!), "options"),
        ["options constructor, bound above the limit"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions { MaximumRetained = StripedObjectPool<Thing>.MaximumRetainedLimit + 1 }), "MaximumRetained"),
        ["options constructor, misuse policy -1"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions { MisusePolicy = (PoolMisusePolicy)(-1) }), "MisusePolicy"),
        ["options constructor, misuse policy 3, guarded"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), new StripedObjectPoolOptions { Guarded = true, MisusePolicy = (PoolMisusePolicy)3 }), "MisusePolicy"),
        ["factory constructor, misuse policy int.MaxValue, tracking leaks"] = Case.Of<ArgumentOutOfRangeException>(static _ => _ = new StripedObjectPool<Thing>(static () => new Thing(), null, new StripedObjectPoolOptions { TrackLeaks = true, MisusePolicy = (PoolMisusePolicy)int.MaxValue }), "MisusePolicy"),
        ["provider, bound 0"] = Case.Of<ArgumentOutOfRangeException>(static _ => new StripedObjectPoolProvider().MaximumRetained = 0, "value"),
        ["provider, null policy"] = Case.Of<ArgumentNullException>(static _ => new StripedObjectPoolProvider().Create<Thing>(null!), "policy"),
        ["Return(null)"] = Case.Of<ArgumentNullException>(static pool => pool.Return(null!), "obj"),
        ["double return from the thread slot"] = Case.Of<InvalidOperationException>(static pool =>
        {
            Thing item = pool.Get();
            pool.Return(item);
            pool.Return(item);
        }, null),
        ["double return from the top of a stripe"] = Case.Of<InvalidOperationException>(static pool =>
        {
            // Whether anybody observes pools or not, the second ends on top of the stripe and the third in the slot:
            // unobserved, the second return pushes the first two under one claim; observed, each return that finds
            // the slot taken pushes what was parked there.
            Thing first = pool.Get();
            Thing second = pool.Get();
            Thing third = pool.Get();
            pool.Return(first);
            pool.Return(second);
            pool.Return(third);
            pool.Return(second);
        }, null),
        ["Prefill(-1)"] = Case.Of<ArgumentOutOfRangeException>(static pool => pool.Prefill(-1), "count"),
        ["Scoped with a null action"] = Case.Of<ArgumentNullException>(static pool => pool.Scoped(1, (Action<Thing, int>)null!), "action"),
        ["Scoped with a null function"] = Case.Of<ArgumentNullException>(static pool => pool.Scoped(1, (Func<Thing, int, int>)null!), "func"),
        ["a policy that creates null"] = Case.Of<InvalidOperationException>(static _ => new StripedObjectPool<Thing>(new NullCreatingPolicy()).Get(), null),
        ["AddStripedObjectPools on null"] = Case.Of<ArgumentNullException>(static _ => StripedObjectPoolServiceCollectionExtensions.AddStripedObjectPools(null!), "services"),
        ["AddStripedPooled on null"] = Case.Of<ArgumentNullException>(static _ => StripedObjectPoolServiceCollectionExtensions.AddStripedPooled<Thing>(null!), "services"),
        ["AddStripedPooled with bound 0, when the pool is resolved"] = Case.Of<OptionsValidationException>(static _ =>
        {
            using ServiceProvider container = new ServiceCollection().AddStripedPooled<Thing>(static o => o.MaximumRetained = 0).BuildServiceProvider();
            container.GetRequiredService<ObjectPool<Thing>>();
        }, null),
        ["Get after Dispose"] = Case.Disposed<ObjectDisposedException>(static pool => pool.Get()),
        ["RentLease after Dispose"] = Case.Disposed<ObjectDisposedException>(static pool => pool.RentLease()),
        ["Scoped after Dispose"] = Case.Disposed<ObjectDisposedException>(static pool => pool.Scoped(0, static (_, _) => { })),
        ["Prefill after Dispose"] = Case.Disposed<ObjectDisposedException>(static pool => pool.Prefill(1)),
    };

    public static TheoryData<string> Cases => new(s_cases.Keys);

    [Theory]
    [MemberData(nameof(Cases))]
    public void EveryBadInputThrowsItsDocumentedExceptionAndLeavesThePoolUsable(string name)
    {
        Case bad = s_cases[name];
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 8);
        if (bad.DisposeFirst)
        {
            pool.Dispose();
        }

        Exception exception = Assert.Throws(bad.Expected, () => bad.Act(pool));
        if (bad.ParamName is not null)
        {
            Assert.Equal(bad.ParamName, Assert.IsAssignableFrom<ArgumentException>(exception).ParamName);
        }

        if (!bad.DisposeFirst)
        {
            AssertUsable(pool);
        }
    }

    [Fact]
    public void ADoubleReturnNeverHandsTheObjectToTwoRenters()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 8);
        Thing[] items = Enumerable.Range(0, 4).Select(_ => pool.Get()).ToArray();
        foreach (Thing item in items)
        {
            pool.Return(item);
        }

        Assert.Throws<InvalidOperationException>(() => pool.Return(items[^1]));

        Thing[] rented = Enumerable.Range(0, 8).Select(_ => pool.Get()).ToArray();
        Assert.Equal(rented.Length, rented.Distinct().Count());
    }

    [Fact]
    public void EachDoubleReturnThatThrowsIsCountedOnceInTheStatistics()
    {
        var pool = new StripedObjectPool<Thing>(new CountingPolicy<Thing>(), 8);
        Thing item = pool.Get();
        pool.Return(item);

        Assert.Throws<InvalidOperationException>(() => pool.Return(item));
        Assert.Equal(1, pool.GetStatistics().Misuses);
        Assert.Throws<InvalidOperationException>(() => pool.Return(item));
        Assert.Equal(2, pool.GetStatistics().Misuses);
    }

    [Fact]
    public void ADoubleReturnToAFullDisposingPoolDoesNotDisposeThePooledCopy()
    {
        var pool = new StripedObjectPool<DisposableThing>(new CountingPolicy<DisposableThing>(), new StripedObjectPoolOptions { MaximumRetained = 1, DisposeItems = true });
        DisposableThing item = pool.Get();
        pool.Return(item);

        Assert.Throws<InvalidOperationException>(() => pool.Return(item));

        Assert.False(item.IsDisposed);
        Assert.Same(item, pool.Get());
    }

    private static void AssertUsable(StripedObjectPool<Thing> pool)
    {
        Thing item = pool.Get();
        pool.Return(item);
        Assert.Same(item, pool.Get());
        pool.Return(item);
    }

    private sealed record Case(Type Expected, Action<StripedObjectPool<Thing>> Act, string? ParamName, bool DisposeFirst)
    {
        public static Case Of<TException>(Action<StripedObjectPool<Thing>> act, string? paramName)
            where TException : Exception => new(typeof(TException), act, paramName, DisposeFirst: false);

        public static Case Disposed<TException>(Action<StripedObjectPool<Thing>> act)
            where TException : Exception => new(typeof(TException), act, null, DisposeFirst: true);
    }
}
