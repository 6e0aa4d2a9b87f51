using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// A pool exists so that objects are built rarely: eight threads each get 1 to 20 objects and return them all, over and
/// over. When the bound is at least the most objects out at once, a pool that keeps what comes back never needs to
/// build more than that peak (plus one per thread for a cache that holds an object while its thread is not running).
/// <see cref="DefaultObjectPool{T}"/> runs the same workload beside ours as the reference. Counts, not timings.
/// </summary>
[Trait("Category", "Stress")]
public class ObjectPoolChurnTests
{
    private const int Threads = 8;
    private const int MostHeld = 20;
    private const int GetsPerThread = 100_000;
    private const int Peak = Threads * MostHeld;

    [Theory]
    [InlineData(Peak)]
    [InlineData(256)]
    [InlineData(1024)]
    public void APoolWhoseBoundCoversThePeakBuildsAtMostThePeakPlusOnePerThread(int bound)
    {
        var reference = new CountingPolicy();
        Churn(new DefaultObjectPool<Item>(reference, bound));
        Assert.True(reference.Created <= Peak + Threads, $"Bound {bound}: DefaultObjectPool built {reference.Created} objects.");

        var ours = new CountingPolicy();
        Churn(new StripedObjectPool<Item>(ours, bound));
        Assert.True(ours.Created <= Peak + Threads, $"Bound {bound}: StripedObjectPool built {ours.Created} objects for a peak of {Peak} (DefaultObjectPool: {reference.Created}).");
    }

    /// <summary>Each thread gets 1 to <see cref="MostHeld"/> objects, stamps them, checks and returns them, until it made <see cref="GetsPerThread"/> gets.</summary>
    private static void Churn(ObjectPool<Item> pool)
    {
        TestThreads.Run(Threads, thread =>
        {
            var random = new Random(thread);
            var held = new Item[MostHeld];
            long token = (long)thread << 40;
            for (int gets = 0; gets < GetsPerThread;)
            {
                int count = random.Next(1, MostHeld + 1);
                for (int i = 0; i < count; i++)
                {
                    held[i] = pool.Get();
                    held[i].Token = ++token;
                }

                for (int i = 0; i < count; i++)
                {
                    Assert.Equal(token - count + 1 + i, held[i].Token);
                    pool.Return(held[i]);
                }

                gets += count;
            }
        });
    }

    private sealed class Item
    {
        public long Token;
    }

    private sealed class CountingPolicy : PooledObjectPolicy<Item>
    {
        private int _created;

        // Volatile: the test thread reads the count after the workers joined.
        public int Created => Volatile.Read(ref _created);

        public override Item Create()
        {
            // Interlocked: the workers create at once.
            Interlocked.Increment(ref _created);
            return new Item();
        }

        public override bool Return(Item obj) => true;
    }
}
