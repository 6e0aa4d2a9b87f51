using System.Threading.Tasks;
using NativePool.Benchmarks.Interleaved;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Contention;

/// <summary>
/// The contention body, written once for the BenchmarkDotNet suite and the interleaved runner: one operation is one
/// <see cref="Parallel.For(int, int, ParallelOptions, Action{int})"/> of <c>threads</c> bodies, each doing
/// <see cref="OperationsPerThread"/> Get → touch → Return of a <c>byte[256]</c> (<c>held</c> = 1), or the same number of
/// Gets four at a time (<c>held</c> = 4: Get 4, touch 4, Return 4), where a one-item per-thread cache stops helping.
/// </summary>
/// <typeparam name="TPool">The pool under test, as an adapter struct.</typeparam>
public readonly struct ContentionWork<TPool> : IOperation, IDisposable, ICountsBuilds
    where TPool : struct, IObjectPoolAdapter<byte[]>
{
    public const int OperationsPerThread = 1000;
    public const int BufferSize = 256;
    public const int PoolSize = 64;

    private readonly ParallelOptions _options;
    private readonly Action<int> _body;
    private readonly int _threads;
    private readonly IDisposable? _owner;
    private readonly Func<long>? _built;

    /// <param name="pool">The pool under test.</param>
    /// <param name="threads">The bodies of each Parallel.For (and its maximum degree of parallelism).</param>
    /// <param name="held">1 or 4 items held at once by each body.</param>
    /// <param name="owner">What <see cref="Dispose"/> disposes (the pool behind the adapter), if anything.</param>
    /// <param name="built">Reads how many arrays the pool's policy has built, for the build counts; null when not counted.</param>
    public ContentionWork(TPool pool, int threads, int held, IDisposable? owner = null, Func<long>? built = null)
    {
        if (held is not (1 or 4))
        {
            throw new ArgumentOutOfRangeException(nameof(held), held, "Held is 1 or 4.");
        }

        _threads = threads;
        _owner = owner;
        _built = built;
        _options = new ParallelOptions { MaxDegreeOfParallelism = threads };
        _body = held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool);
    }

    public void Run(int count)
    {
        for (int i = 0; i < count; i++)
        {
            Parallel.For(0, _threads, _options, _body);
        }
    }

    public long Built => _built?.Invoke() ?? 0;

    public long GetsPer(int count) => _built is null ? 0 : (long)count * _threads * OperationsPerThread;

    public void Dispose() => _owner?.Dispose();

    private static void OneAtATime(TPool pool)
    {
        for (int i = 0; i < OperationsPerThread; i++)
        {
            byte[] buffer = pool.Take();
            buffer[0]++;
            pool.Give(buffer);
        }
    }

    private static void FourAtATime(TPool pool)
    {
        for (int i = 0; i < OperationsPerThread; i += 4)
        {
            byte[] a = pool.Take();
            byte[] b = pool.Take();
            byte[] c = pool.Take();
            byte[] d = pool.Take();
            a[0]++;
            b[0]++;
            c[0]++;
            d[0]++;
            pool.Give(d);
            pool.Give(c);
            pool.Give(b);
            pool.Give(a);
        }
    }
}
