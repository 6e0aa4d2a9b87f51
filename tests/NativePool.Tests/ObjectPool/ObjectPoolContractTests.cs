using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// Microsoft's <see cref="ObjectPool{T}"/> contract, run against every configuration of <see cref="StripedObjectPool{T}"/>
/// and against Microsoft's own pools (through <see cref="DefaultObjectPoolProvider"/>) as the reference.
/// </summary>
/// <remarks>
/// Every pool is made through a provider, so the disposing behaviour for <see cref="IDisposable"/> types is the one each
/// provider picks. Where our pool differs from Microsoft's on purpose (<c>Return(null)</c>, a double return),
/// <see cref="ClosesMicrosoftsGaps"/> is false for the reference and the test asserts what Microsoft's pool actually does.
/// </remarks>
public abstract class ObjectPoolContractTests
{
    /// <summary>The bound the configuration is tested with.</summary>
    protected abstract int MaximumRetained { get; }

    /// <summary>True for our pools: null returns and double returns are rejected with an exception.</summary>
    protected virtual bool ClosesMicrosoftsGaps => true;

    [Fact]
    public void GetOnAnEmptyPoolCreatesAnObjectThroughThePolicy()
    {
        var policy = new CountingPolicy<Thing>();
        ObjectPool<Thing> pool = Create(policy);

        Thing item = pool.Get();

        Assert.NotNull(item);
        Assert.Equal(1, policy.Created);
        Assert.Same(item, policy.CreatedObjects.Single());
        pool.Return(item);
    }

    [Fact]
    public void GetRightAfterReturnGivesBackTheSameObject()
    {
        ObjectPool<Thing> pool = Create(new CountingPolicy<Thing>());
        for (int i = 0; i < 100; i++)
        {
            Thing item = pool.Get();
            pool.Return(item);
            Assert.Same(item, pool.Get());
            pool.Return(item);
        }
    }

    [Fact]
    public void GetRightAfterReturnGivesBackTheSameObjectWhenThePoolHoldsOthers()
    {
        ObjectPool<Thing> pool = Create(new CountingPolicy<Thing>());
        Thing[] others = Enumerable.Range(0, MaximumRetained).Select(_ => pool.Get()).ToArray();
        foreach (Thing other in others)
        {
            pool.Return(other);
        }

        Thing item = pool.Get();
        pool.Return(item);
        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void ReturnRunsThePolicyOnEveryObject()
    {
        var policy = new CountingPolicy<Thing>();
        ObjectPool<Thing> pool = Create(policy);
        Thing[] items = Enumerable.Range(0, 3 * MaximumRetained).Select(_ => pool.Get()).ToArray();

        foreach (Thing item in items)
        {
            pool.Return(item);
        }

        Assert.Equal(items.Length, policy.Returned);
    }

    [Fact]
    public void AnInterfaceOnlyPolicyRunsOnEveryReturn()
    {
        var policy = new InterfacePolicy<Thing>();
        ObjectPool<Thing> pool = Create(policy);
        Thing item = pool.Get();

        pool.Return(item);

        Assert.Equal(1, policy.Returned);
        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void AnObjectThePolicyRejectsIsDropped()
    {
        var policy = new CountingPolicy<Thing> { Accept = static _ => false };
        ObjectPool<Thing> pool = Create(policy);
        Thing rejected = pool.Get();

        pool.Return(rejected);
        Thing next = pool.Get();

        Assert.NotSame(rejected, next);
        Assert.Equal(2, policy.Created);
        pool.Return(next);
    }

    [Fact]
    public void TheDefaultPolicyResetsAnIResettableObject()
    {
        ObjectPool<ResettableThing> pool = Create(new DefaultPooledObjectPolicy<ResettableThing>());
        ResettableThing item = pool.Get();
        item.Dirty = true;

        pool.Return(item);

        Assert.Same(item, pool.Get());
        Assert.False(item.Dirty);
        Assert.Equal(1, item.Resets);
    }

    [Fact]
    public void TheDefaultPolicyDropsAnObjectThatFailsToReset()
    {
        ObjectPool<ResettableThing> pool = Create(new DefaultPooledObjectPolicy<ResettableThing>());
        ResettableThing item = pool.Get();
        item.CanReset = false;

        pool.Return(item);

        Assert.NotSame(item, pool.Get());
    }

    [Fact]
    public void AtMostMaximumRetainedObjectsAreKeptWhenManyMoreAreReturned()
    {
        var policy = new CountingPolicy<Thing>();
        ObjectPool<Thing> pool = Create(policy);
        var returned = new HashSet<Thing>(Enumerable.Range(0, 10 * MaximumRetained).Select(_ => pool.Get()));
        foreach (Thing item in returned)
        {
            pool.Return(item);
        }

        int createdBefore = policy.Created;
        int kept = Enumerable.Range(0, 10 * MaximumRetained).Select(_ => pool.Get()).Count(returned.Contains);

        // One thread alone fills the bound exactly (Microsoft's pool: its fast item and its queue).
        Assert.Equal(MaximumRetained, kept);
        Assert.Equal(9 * MaximumRetained, policy.Created - createdBefore);
    }

    [Fact]
    public void ADisposingPoolDisposesWhatItCannotKeep()
    {
        ObjectPool<DisposableThing> pool = Create(new CountingPolicy<DisposableThing>());
        DisposableThing[] items = Enumerable.Range(0, 10 * MaximumRetained).Select(_ => pool.Get()).ToArray();

        foreach (DisposableThing item in items)
        {
            pool.Return(item);
        }

        // The bound is kept exactly; every other object is disposed, once.
        int disposed = items.Count(static item => item.IsDisposed);
        Assert.Equal(9 * MaximumRetained, disposed);
        Assert.All(items, static item => Assert.Equal(item.IsDisposed ? 1 : 0, item.DisposeCount));
    }

    [Fact]
    public void ADisposingPoolDisposesAnObjectThePolicyRejects()
    {
        ObjectPool<DisposableThing> pool = Create(new CountingPolicy<DisposableThing> { Accept = static _ => false });
        DisposableThing item = pool.Get();

        pool.Return(item);

        #pragma warning disable NP0002 // The test checks what the return did to the object.
        Assert.True(item.IsDisposed);
        #pragma warning restore NP0002
    }

    [Fact]
    public void TheProviderPicksTheDisposingBehaviourForDisposableTypes()
    {
        ObjectPool<DisposableThing> pool = Create(new CountingPolicy<DisposableThing>());
        DisposableThing item = pool.Get();
        pool.Return(item);

        IDisposable disposable = Assert.IsAssignableFrom<IDisposable>(pool);
        disposable.Dispose();

        #pragma warning disable NP0002 // The test checks what the return did to the object.
        Assert.Equal(1, item.DisposeCount);
        #pragma warning restore NP0002
    }

    [Fact]
    public void DisposingThePoolDisposesEveryRetainedObjectOnce()
    {
        var policy = new CountingPolicy<DisposableThing>();
        ObjectPool<DisposableThing> pool = Create(policy);
        DisposableThing[] items = Enumerable.Range(0, 2 * MaximumRetained).Select(_ => pool.Get()).ToArray();
        foreach (DisposableThing item in items)
        {
            pool.Return(item);
        }

        ((IDisposable)pool).Dispose();

        Assert.All(items, static item => Assert.Equal(1, item.DisposeCount));
    }

    [Fact]
    public void DisposingThePoolDisposesObjectsReturnedOnOtherLiveThreads()
    {
        var policy = new CountingPolicy<DisposableThing>();
        ObjectPool<DisposableThing> pool = Create(policy);

        // Each thread returns its object (into its own slot, for our pools) and stays alive until the pool is disposed.
        using (StartedThreads threads = TestThreads.Start(3, (_, _) => pool.Return(pool.Get())))
        {
            threads.WaitForBodies();
            ((IDisposable)pool).Dispose();
        }

        Assert.All(policy.CreatedObjects, static item => Assert.Equal(1, item.DisposeCount));
    }

    [Fact]
    public void GetAfterDisposeThrowsObjectDisposedException()
    {
        ObjectPool<DisposableThing> pool = Create(new CountingPolicy<DisposableThing>());
        ((IDisposable)pool).Dispose();

        Assert.Throws<ObjectDisposedException>(() => pool.Get());
    }

    [Fact]
    public void ReturnAfterDisposeDisposesTheObject()
    {
        ObjectPool<DisposableThing> pool = Create(new CountingPolicy<DisposableThing>());
        DisposableThing item = pool.Get();
        ((IDisposable)pool).Dispose();

        pool.Return(item);

        #pragma warning disable NP0002 // The test checks what the return did to the object.
        Assert.Equal(1, item.DisposeCount);
        #pragma warning restore NP0002
    }

    [Fact]
    public void ReturningNullIsRejectedAndLeavesThePoolUsable()
    {
        ObjectPool<Thing> pool = Create(new CountingPolicy<Thing>());

        if (ClosesMicrosoftsGaps)
        {
            var exception = Assert.Throws<ArgumentNullException>(() => pool.Return(null!));
            Assert.Equal("obj", exception.ParamName);
        }
        else
        {
            // Microsoft's pool accepts null without an exception.
            pool.Return(null!);
        }

        Thing item = pool.Get();
        Assert.NotNull(item);
        pool.Return(item);
        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void ReturningAnObjectTwiceNeverHandsItToTwoRenters()
    {
        ObjectPool<Thing> pool = Create(new CountingPolicy<Thing>());
        Thing item = pool.Get();
        pool.Return(item);

        if (ClosesMicrosoftsGaps)
        {
            Assert.Throws<InvalidOperationException>(() => pool.Return(item));
            #pragma warning disable NP0003 // The second owner check needs both objects out of the pool.
            Thing first = pool.Get();
            Thing second = pool.Get();
            #pragma warning restore NP0003
            Assert.Same(item, first);
            Assert.NotSame(first, second);
        }
        else
        {
            // Microsoft's pool keeps both copies and hands the same object to two renters.
            pool.Return(item);
            Assert.Same(pool.Get(), pool.Get());
        }
    }

    /// <summary>Creates the provider under test, bounded at <paramref name="maximumRetained"/>.</summary>
    protected abstract ObjectPoolProvider CreateProvider(int maximumRetained);

    private ObjectPool<T> Create<T>(IPooledObjectPolicy<T> policy) where T : class => CreateProvider(MaximumRetained).Create(policy);
}
