using Microsoft.Extensions.ObjectPool;
using NativePool.Tests.ObjectPool;

namespace NativePool.Tests.Parity;

/// <summary>
/// The ideas of Microsoft.Extensions.ObjectPool's own tests (default pool, disposable pool, provider, threading), run
/// against Microsoft's pools (the control) and against ours, each made through its provider. Upstream names and
/// verdicts: docs/parity.md.
/// </summary>
public abstract class ObjectPoolParityTests
{
    [Fact]
    public void TheDefaultPolicyGivesBackTheObjectJustReturned()
    {
        ObjectPool<object> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<object>());
        object first = pool.Get();
        pool.Return(first);
        Assert.Same(first, pool.Get());
    }

    [Fact]
    public void ACustomPolicyGivesBackTheObjectJustReturned()
    {
        ObjectPool<List<int>> pool = CreateProvider().Create(new CapacityPolicy());
        List<int> first = pool.Get();
        pool.Return(first);
        Assert.Same(first, pool.Get());
    }

    [Fact]
    public void ThePolicyCreatesTheObjects()
    {
        ObjectPool<List<int>> pool = CreateProvider().Create(new CapacityPolicy());
        Assert.Equal(CapacityPolicy.Capacity, pool.Get().Capacity);
    }

    [Fact]
    public void AnObjectThePolicyRejectsIsNotHandedOutAgain()
    {
        ObjectPool<List<int>> pool = CreateProvider().Create(new CapacityPolicy());
        List<int> first = pool.Get();
        first.Capacity = 20;
        pool.Return(first);
        Assert.NotSame(first, pool.Get());
    }

    [Fact]
    public void ADisposingPoolWithTheDefaultPolicyGivesBackTheObjectJustReturned()
    {
        ObjectPool<DisposableThing> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        DisposableThing first = pool.Get();
        pool.Return(first);
        Assert.Same(first, pool.Get());
    }

    [Fact]
    public void ADisposingPoolWithACustomPolicyGivesBackTheObjectJustReturned()
    {
        ObjectPool<DisposableList> pool = CreateProvider().Create(new DisposableCapacityPolicy());
        DisposableList first = pool.Get();
        pool.Return(first);
        Assert.Same(first, pool.Get());
        Assert.False(first.IsDisposed);
    }

    [Fact]
    public void ADisposingPoolDropsAnObjectThePolicyRejects()
    {
        ObjectPool<DisposableList> pool = CreateProvider().Create(new DisposableCapacityPolicy());
        DisposableList first = pool.Get();
        first.Items.Capacity = 20;
        pool.Return(first);
        Assert.NotSame(first, pool.Get());
        Assert.True(first.IsDisposed);
    }

    [Fact]
    public void DisposingThePoolDisposesTheObjectItHolds()
    {
        ObjectPool<DisposableThing> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        DisposableThing item = pool.Get();
        pool.Return(item);

        ((IDisposable)pool).Dispose();

        #pragma warning disable NP0002 // The test checks what the pool did to the object.
        Assert.True(item.IsDisposed);
        #pragma warning restore NP0002
    }

    [Fact]
    public void DisposingThePoolDisposesEveryObjectItHolds()
    {
        ObjectPool<DisposableThing> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        DisposableThing first = pool.Get();
        DisposableThing second = pool.Get();
        pool.Return(first);
        pool.Return(second);

        ((IDisposable)pool).Dispose();

        #pragma warning disable NP0002 // The test checks what the pool did to the objects.
        Assert.True(first.IsDisposed);
        Assert.True(second.IsDisposed);
        #pragma warning restore NP0002
    }

    [Fact]
    public void GetAfterDisposeThrows()
    {
        // Upstream holds two objects at once and returns both before the dispose.
        ObjectPool<DisposableThing> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        DisposableThing first = pool.Get();
        DisposableThing second = pool.Get();
        pool.Return(first);
        pool.Return(second);
        ((IDisposable)pool).Dispose();
        Assert.Throws<ObjectDisposedException>(() => pool.Get());
    }

    [Fact]
    public void ReturnAfterDisposeDisposesTheObject()
    {
        ObjectPool<DisposableThing> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<DisposableThing>());
        DisposableThing item = pool.Get();
        ((IDisposable)pool).Dispose();
        pool.Return(item);
        #pragma warning disable NP0002 // The test checks what the pool did to the object.
        Assert.True(item.IsDisposed);
        #pragma warning restore NP0002
    }

    [Fact]
    public void TheDefaultPolicyKeepsAResettableObjectOnlyIfItsResetSucceeds()
    {
        // Upstream DefaultObjectPool_Honors_IResettable: a foreign object returned twice, its reset failing, then succeeding.
        ObjectPool<Resettable> pool = CreateProvider().Create(new DefaultPooledObjectPolicy<Resettable>());
        var item = new Resettable { ResetSucceeds = false };
        pool.Return(item);
        Assert.Equal(1, item.ResetCalls);
        Assert.NotSame(item, pool.Get());

        item.ResetSucceeds = true;
        pool.Return(item);
        Assert.Equal(2, item.ResetCalls);
        Assert.Same(item, pool.Get());
    }

    [Fact]
    public void TheProviderGivesAPlainPoolForAPlainType() => AssertPlainPool(CreateProvider().Create<object>());

    [Fact]
    public void TheProviderGivesADisposingPoolForADisposableType() => AssertDisposingPool(CreateProvider().Create<DisposableThing>());

    [Fact]
    public void NoObjectIsHandedToTwoThreadsAtOnce() =>
        RunThreads(CreateProvider(10).Create(new DefaultPooledObjectPolicy<Marked>()));

    [Fact]
    public void NoObjectIsHandedToTwoThreadsAtOnceInADisposingPool() =>
        RunThreads(CreateProvider(10).Create(new DefaultPooledObjectPolicy<DisposableMarked>()));

    /// <summary>The provider of the implementation under test, whose pools keep at most <paramref name="maximumRetained"/> objects.</summary>
    protected abstract ObjectPoolProvider CreateProvider(int maximumRetained);

    /// <summary>Asserts that <paramref name="pool"/> is the provider's pool for non-disposable types.</summary>
    protected abstract void AssertPlainPool<T>(ObjectPool<T> pool) where T : class;

    /// <summary>Asserts that <paramref name="pool"/> is the provider's disposing pool.</summary>
    protected abstract void AssertDisposingPool<T>(ObjectPool<T> pool) where T : class;

    /// <summary>
    /// A provider with upstream's bound: <c>Environment.ProcessorCount * 2</c>, what <c>new DefaultObjectPool&lt;T&gt;(policy)</c>
    /// and <c>new DefaultObjectPoolProvider()</c> keep in the upstream tests.
    /// </summary>
    private ObjectPoolProvider CreateProvider() => CreateProvider(Environment.ProcessorCount * 2);

    private static void RunThreads<T>(ObjectPool<T> pool)
        where T : Marked
    {
        // Upstream's RunThreadingTest: eight threads for one second on a pool of 10. The assertion holds however many
        // rounds the threads got through in that second; each thread does at least one.
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(1));
        CancellationToken token = stop.Token;
        int failures = 0;
        TestThreads.Run(8, _ =>
        {
            do
            {
                T first = pool.Get();
                T second = pool.Get();

                // Interlocked: an object handed to two threads at once is seen marked by the other one.
                if (Interlocked.Exchange(ref first.Mark, 1) != 0 || Interlocked.Exchange(ref second.Mark, 1) != 0)
                {
                    // Interlocked: several threads may find a shared object at once.
                    Interlocked.Increment(ref failures);
                }

                // Volatile: the unmark must be visible to the next thread that gets the object from the pool.
                Volatile.Write(ref first.Mark, 0);
                Volatile.Write(ref second.Mark, 0);
                pool.Return(first);
                pool.Return(second);
            }
            while (!token.IsCancellationRequested);
        });
        Assert.Equal(0, failures);
    }

    /// <summary>An object a thread marks while it holds it.</summary>
    internal class Marked
    {
        public int Mark;
    }

    /// <summary>A disposable <see cref="Marked"/>, so the providers pick their disposing pools.</summary>
    internal sealed class DisposableMarked : Marked, IDisposable
    {
        public void Dispose()
        {
        }
    }

    /// <summary>An object whose reset succeeds or fails as the test says, and counts its calls.</summary>
    internal sealed class Resettable : IResettable
    {
        public bool ResetSucceeds { get; set; }

        public int ResetCalls { get; private set; }

        public bool TryReset()
        {
            ResetCalls++;
            return ResetSucceeds;
        }
    }

    /// <summary>A list that can be disposed, for the disposing pool's policy tests.</summary>
    internal sealed class DisposableList : IDisposable
    {
        public List<int> Items { get; } = new(CapacityPolicy.Capacity);

        public bool IsDisposed { get; private set; }

        public void Dispose() => IsDisposed = true;
    }

    private sealed class CapacityPolicy : IPooledObjectPolicy<List<int>>
    {
        public const int Capacity = 17;

        public List<int> Create() => new(Capacity);

        public bool Return(List<int> obj) => obj.Capacity == Capacity;
    }

    private sealed class DisposableCapacityPolicy : IPooledObjectPolicy<DisposableList>
    {
        public DisposableList Create() => new();

        public bool Return(DisposableList obj) => obj.Items.Capacity == CapacityPolicy.Capacity;
    }
}
