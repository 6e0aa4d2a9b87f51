using System.Threading;

namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// First use on a fresh thread: each operation starts a thread that rents a 4 KiB buffer once, writes it and returns
/// it, and joins it, so every rent meets a thread the pool has never seen. Ours is
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c>, the peer <c>ArrayPool&lt;byte&gt;.Shared</c>; both sides pay the same thread
/// start and join. Goal ≤ 1.00, and ours allocates no more per thread.
/// </summary>
public static class FreshThreadArrayScenario
{
    public const int Length = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<FirstUse<Striped>, FirstUse<Bcl>>(
            "app: first use on a fresh thread, Rent(4096)+Return once per thread, vs ArrayPool.Shared",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
            () => default);

    private readonly struct FirstUse<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                var thread = new Thread(static () =>
                {
                    ArrayPool<byte> pool = TPool.Pool;
                    byte[] buffer = pool.Rent(Length);
                    buffer[0] = 1;
                    pool.Return(buffer);
                });
                thread.Start();
                thread.Join();
            }
        }
    }
}
