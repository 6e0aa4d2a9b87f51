using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Contention;

/// <summary>
/// Tedd.ObjectPool's contention benchmark in its published shape: each benchmark method runs one
/// <see cref="Parallel.For(int, int, Action{int})"/> of <see cref="Threads"/> bodies, and each body calls its pool
/// directly, in a loop of its own, <see cref="OperationsPerThread"/> times: get a <c>byte[256]</c> (of a pool of 64),
/// touch it, give it back; <see cref="Held"/> = 4 holds four at once. The Tedd-style peer is the baseline.
/// </summary>
/// <remarks>
/// Unlike <see cref="ContentionBenchmarks"/> (which calls every pool through one shared work method and a struct
/// adapter), each pool here has its own loop, so a pool whose fast path inlines into a user's loop shows it, as it does
/// in user code and in the published benchmark. Ours is built the way Tedd.ObjectPool is, from a factory and no cleanup;
/// Microsoft's from a policy that makes the same array. The three loops are written out on purpose: one shared generic
/// loop would reach every pool through one method, which is the shape this benchmark exists to avoid.
/// <para>
/// Each body's loop runs in the benchmark's own method, which starts quick-jitted with instrumentation and counts 1 000
/// iterations before it can move to optimized code, so until tiered compilation replaces the whole method, every call
/// runs its loop unoptimized. There a call to our pool is a virtual call through <see cref="ObjectPool{T}"/> (the JIT
/// devirtualizes it only when optimizing), and each virtual call records the receiver's type in a profile table the
/// threads share, while the Tedd-style pool's methods are not virtual. The job therefore keeps the published run's
/// iteration time and warm-up, long enough for every loop to reach optimized code before it is measured.
/// </para>
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of microseconds: the call overhead is noise

// The published run's iteration time and at least its warm-up: in a shorter run the benchmark's own loop methods are
// still quick-jitted with instrumentation when measured (see the remarks), and that code, not the pools, is timed.
[IterationTime(500)]
[WarmupCount(10)]
[IterationCount(15)]
[BenchmarkCategory("Contention")]
public class TeddPublishedShapeBenchmarks
{
    private const int BufferSize = 256;
    private const int PoolSize = 64;

    private TeddStyleObjectPool<byte[]> _tedd = null!;
    private DefaultObjectPool<byte[]> _microsoft = null!;
    private StripedObjectPool<byte[]> _striped = null!;

    [ParamsSource(nameof(ThreadCounts))]
    public int Threads { get; set; }

    [Params(1, 4)]
    public int Held { get; set; }

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([2, 8, 32], [2]);

    /// <summary>Gets and returns per body, as in the published benchmark.</summary>
    public static int OperationsPerThread => 1000;

    [GlobalSetup]
    public void Setup()
    {
        _tedd = new TeddStyleObjectPool<byte[]>(static () => new byte[BufferSize], null, PoolSize);
        _microsoft = new DefaultObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize);
        _striped = new StripedObjectPool<byte[]>(static () => new byte[BufferSize], null, new StripedObjectPoolOptions { MaximumRetained = PoolSize });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _tedd.Dispose();
        _striped.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.TeddStyle)]
    public void TeddStyle()
    {
        TeddStyleObjectPool<byte[]> pool = _tedd;
        int held = Held;
        Parallel.For(0, Threads, _ =>
        {
            if (held == 1)
            {
                for (int i = 0; i < OperationsPerThread; i++)
                {
                    byte[] item = pool.Allocate();
                    Touch(item);
                    pool.Free(item);
                }

                return;
            }

            byte[][] items = new byte[held][];
            for (int i = 0; i < OperationsPerThread; i += held)
            {
                for (int h = 0; h < held; h++)
                {
                    items[h] = pool.Allocate();
                    Touch(items[h]);
                }

                for (int h = 0; h < held; h++)
                {
                    pool.Free(items[h]);
                }
            }
        });
    }

    [Benchmark(Description = PeerNames.DefaultObjectPool)]
    public void Microsoft()
    {
        DefaultObjectPool<byte[]> pool = _microsoft;
        int held = Held;
        Parallel.For(0, Threads, _ =>
        {
            if (held == 1)
            {
                for (int i = 0; i < OperationsPerThread; i++)
                {
                    byte[] item = pool.Get();
                    Touch(item);
                    pool.Return(item);
                }

                return;
            }

            byte[][] items = new byte[held][];
            for (int i = 0; i < OperationsPerThread; i += held)
            {
                for (int h = 0; h < held; h++)
                {
                    items[h] = pool.Get();
                    Touch(items[h]);
                }

                for (int h = 0; h < held; h++)
                {
                    pool.Return(items[h]);
                }
            }
        });
    }

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped()
    {
        StripedObjectPool<byte[]> pool = _striped;
        int held = Held;
        Parallel.For(0, Threads, _ =>
        {
            if (held == 1)
            {
                for (int i = 0; i < OperationsPerThread; i++)
                {
                    byte[] item = pool.Get();
                    Touch(item);
                    pool.Return(item);
                }

                return;
            }

            byte[][] items = new byte[held][];
            for (int i = 0; i < OperationsPerThread; i += held)
            {
                for (int h = 0; h < held; h++)
                {
                    items[h] = pool.Get();
                    Touch(items[h]);
                }

                for (int h = 0; h < held; h++)
                {
                    pool.Return(items[h]);
                }
            }
        });
    }

    /// <summary>The same work per object on every side, as in <see cref="ContentionWork{TPool}"/>: one write.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Touch(byte[] item) => item[0]++;
}
