using System.Threading;
using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Two threads, each holding one object at a time (Get, touch, Return), created afresh for every timed batch of each
/// side, so the pool meets new threads all the time: <c>StripedObjectPool&lt;T&gt;</c> against
/// <c>DefaultObjectPool&lt;T&gt;</c>, both retaining 8. One operation is one Get + touch + Return; the batch's time
/// includes starting and joining its two threads. Goal ≤ 0.50.
/// </summary>
public static class FreshThreadsScenario
{
    public const int Threads = 2;
    public const int MaximumRetained = 8;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<OnFreshThreads<Striped>, OnFreshThreads<Default>>(
            "2 fresh threads x 1 object vs DefaultObjectPool",
            0.50,
            () => new OnFreshThreads<Striped>(new Striped(new StripedObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained))),
            () => new OnFreshThreads<Default>(new Default(new DefaultObjectPool<PooledObject>(new DefaultPooledObjectPolicy<PooledObject>(), MaximumRetained))));

    /// <summary>Runs <typeparamref name="TOp"/> on <see cref="Threads"/> new threads, the batch split between them.</summary>
    private readonly struct OnFreshThreads<TOp>(TOp body) : IOperation, IDisposable
        where TOp : struct, IOperation
    {
        public void Run(int count)
        {
            var threads = new Thread[Threads];
            for (int t = 0; t < threads.Length; t++)
            {
                TOp copy = body;
                int share = (count / Threads) + (t < count % Threads ? 1 : 0);
                threads[t] = new Thread(() => copy.Run(share)) { IsBackground = true };
                threads[t].Start();
            }

            foreach (Thread thread in threads)
            {
                thread.Join();
            }
        }

        public void Dispose() => (body as IDisposable)?.Dispose();
    }

    private readonly struct Striped(StripedObjectPool<PooledObject> pool) : IOperation, IDisposable
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                PooledObject item = pool.Get();
                item.Touch();
                pool.Return(item);
            }
        }

        public void Dispose() => pool.Dispose();
    }

    private readonly struct Default(DefaultObjectPool<PooledObject> pool) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                PooledObject item = pool.Get();
                item.Touch();
                pool.Return(item);
            }
        }
    }
}
