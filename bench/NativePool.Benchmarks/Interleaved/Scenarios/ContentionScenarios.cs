using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Contention;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Parallel Get → touch → Return of <c>byte[256]</c> on a pool of 64 (<see cref="ContentionWork{TPool}"/>; one operation
/// is one Parallel.For of all its bodies), holding 1 or 4 items per body: against Microsoft's <c>DefaultObjectPool</c> at
/// 32 bodies (goal ≤ 0.10: its one shared counter and <c>_fastItem</c> line are what every body fights over), and against
/// the re-created Tedd.ObjectPool at 2, 8 and 32 bodies, its own benchmark's shapes (goal ≤ 1.0 holding 1, where a
/// one-item thread cache is at its best; ≤ 0.2 holding 4, where it stops helping). Ours is built as each peer is: from
/// the peer's policy against Microsoft's pool, from a factory and no cleanup against the Tedd-style pool, each build with
/// an adapter type of its own, so no work method serves both. On this machine
/// 32 bodies share 2 cores: the row measures oversubscription, as the original benchmark did on its machine.
/// </summary>
public static class ContentionScenarios
{
    private const int BufferSize = ContentionWork<MicrosoftPoolAdapter>.BufferSize;
    private const int PoolSize = ContentionWork<MicrosoftPoolAdapter>.PoolSize;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        VersusDefault(held: 1),
        VersusDefault(held: 4),
        VersusTeddStyle(threads: 2, held: 1, goal: 1.0),
        VersusTeddStyle(threads: 2, held: 4, goal: 0.2),
        VersusTeddStyle(threads: 8, held: 1, goal: 1.0),
        VersusTeddStyle(threads: 8, held: 4, goal: 0.2),
        VersusTeddStyle(threads: 32, held: 1, goal: 1.0),
        VersusTeddStyle(threads: 32, held: 4, goal: 0.2),
    ];

    private static InterleavedScenario<ContentionWork<StripedPoolAdapter<BuiltFromPolicy>>, ContentionWork<MicrosoftPoolAdapter>> VersusDefault(int held) =>
        new InterleavedScenario<ContentionWork<StripedPoolAdapter<BuiltFromPolicy>>, ContentionWork<MicrosoftPoolAdapter>>(
            $"contention 32 threads × {held} held vs DefaultObjectPool",
            0.10,
            () =>
            {
                var policy = new FixedArrayPolicy(BufferSize);
                var pool = new StripedObjectPool<byte[]>(policy, PoolSize);
                return new ContentionWork<StripedPoolAdapter<BuiltFromPolicy>>(new(pool), 32, held, pool, () => policy.Built);
            },
            () =>
            {
                var policy = new FixedArrayPolicy(BufferSize);
                return new ContentionWork<MicrosoftPoolAdapter>(
                    new MicrosoftPoolAdapter(new DefaultObjectPool<byte[]>(policy, PoolSize)), 32, held, built: () => policy.Built);
            });

    private static InterleavedScenario<ContentionWork<StripedPoolAdapter<BuiltFromFactory>>, ContentionWork<TeddStylePoolAdapter>> VersusTeddStyle(int threads, int held, double goal) =>
        new InterleavedScenario<ContentionWork<StripedPoolAdapter<BuiltFromFactory>>, ContentionWork<TeddStylePoolAdapter>>(
            $"contention {threads} threads × {held} held vs Tedd-style thread-cache pool",
            goal,
            () =>
            {
                var policy = new FixedArrayPolicy(BufferSize);
                var pool = new StripedObjectPool<byte[]>(policy.Create, null, new StripedObjectPoolOptions { MaximumRetained = PoolSize });
                return new ContentionWork<StripedPoolAdapter<BuiltFromFactory>>(new(pool), threads, held, pool, () => policy.Built);
            },
            () =>
            {
                var policy = new FixedArrayPolicy(BufferSize);
                var pool = new TeddStyleObjectPool<byte[]>(policy.Create, null, PoolSize);
                return new ContentionWork<TeddStylePoolAdapter>(new TeddStylePoolAdapter(pool), threads, held, pool, () => policy.Built);
            });
}
