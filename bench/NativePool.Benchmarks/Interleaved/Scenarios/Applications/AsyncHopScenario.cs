using System.Threading.Tasks;

namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// An async hop: four tasks each rent a 4 KiB buffer, write it, <c>await Task.Yield()</c> and return it on whatever
/// thread-pool thread runs the continuation, so rents and returns land on different threads' caches. Ours is
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c>, the peer <c>ArrayPool&lt;byte&gt;.Shared</c>. One operation is one rent,
/// hop and return; a batch waits for its four tasks. Goal ≤ 1.00.
/// </summary>
/// <remarks>
/// The pool's rent and return are about 1 % of an operation (the rest is the hop through the thread pool), so a second
/// row, reported without a goal, runs <c>ArrayPool&lt;byte&gt;.Shared</c> against itself: the spread of that row is
/// what the runner gives this shape whichever pool it serves. A third row makes the same hop with an
/// <see cref="IMemoryOwner{T}"/>: <c>StripedMemoryPool&lt;byte&gt;.Shared.Rent(4096)</c>, the hop, <c>Dispose</c> on the
/// continuation's thread, against <c>MemoryPool&lt;byte&gt;.Shared</c> (goal ≤ 1.00, ours allocating no more).
/// </remarks>
public static class AsyncHopScenario
{
    public const int Tasks = 4;
    public const int Length = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Hop<Striped>, Hop<Bcl>>(
            "app: async hop, rent, await Task.Yield(), return on the continuation's thread, 4 tasks, vs ArrayPool.Shared",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default),
        new InterleavedScenario<MemoryHop<Striped>, MemoryHop<Bcl>>(
            "app: async hop, MemoryPool Rent(4096), await Task.Yield(), Dispose on the continuation's thread, 4 tasks, vs MemoryPool.Shared",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default),
        new InterleavedScenario<Hop<BclAgain>, Hop<Bcl>>(
            "app: async hop through ArrayPool.Shared itself (the runner's spread), vs ArrayPool.Shared",
            double.PositiveInfinity,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default),
    ];

    private readonly struct Hop<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count) => RunTasks(count, static n => Hops(n));

        private static async Task Hops(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                byte[] buffer = pool.Rent(Length);
                buffer[0] = (byte)i;
                await Task.Yield();
                pool.Return(buffer);
            }
        }
    }

    private readonly struct MemoryHop<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count) => RunTasks(count, static n => Hops(n));

        private static async Task Hops(int count)
        {
            MemoryPool<byte> pool = TPool.MemoryPool;
            for (int i = 0; i < count; i++)
            {
                // Disposed at the end of the body, on the continuation's thread.
                using IMemoryOwner<byte> owner = pool.Rent(Length);
                owner.Memory.Span[0] = (byte)i;
                await Task.Yield();
            }
        }
    }

    private static void RunTasks(int count, Func<int, Task> hops)
    {
        var tasks = new Task[Tasks];
        for (int t = 0; t < Tasks; t++)
        {
            int share = (count / Tasks) + (t < count % Tasks ? 1 : 0);
            tasks[t] = Task.Run(() => hops(share));
        }

        Task.WaitAll(tasks);
    }
}
