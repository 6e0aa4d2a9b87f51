using System.Threading.Tasks;
using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Contention;

/// <summary>
/// Seed 002 (Tedd.ObjectPool's contention benchmark): one <see cref="Parallel.For(int, int, ParallelOptions, Action{int})"/>
/// of <see cref="Threads"/> bodies, each doing <see cref="OperationsPerThread"/> Get → touch → Return of a
/// <c>byte[256]</c> on a pool of 64. <see cref="Held"/> = 4 is our variant: each body holds 4 arrays at once (Get 4,
/// touch 4, Return 4; the same 1 000 Gets per body), where a one-item per-thread cache stops helping.
/// Baseline: Microsoft's pool with a fixed-array policy; peers: Tedd-style (re-created) and ours.
/// </summary>
/// <remarks>
/// The measured time is the whole Parallel.For. The Lock Contentions and Completed Work Items columns are recorded by the
/// benchmark itself (the threading diagnoser does not run on .NET 10 with BenchmarkDotNet 0.14.0). On a 2-core machine
/// every row above 2 threads measures oversubscription: Parallel.For runs the bodies on as many thread-pool threads as it
/// gets, not necessarily <see cref="Threads"/> at once (the Completed Work Items column shows how many it used).
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Contention")]
public class ContentionBenchmarks
{
    public const int OperationsPerThread = 1000;
    public const int BufferSize = 256;
    public const int PoolSize = 64;

    private readonly ThreadingCounters _counters = new();
    private ParallelOptions _options = null!;
    private Action<int> _body = null!;
    private TeddStyleObjectPool<byte[]> _teddStyle = null!;
    private StripedObjectPool<byte[]> _striped = null!;
    private string _target = string.Empty;

    [ParamsSource(nameof(ThreadCounts))]
    public int Threads { get; set; }

    [Params(1, 4)]
    public int Held { get; set; }

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([2, 4, 8, 16, 32], [2, 32]);

    [GlobalSetup(Target = nameof(Default))]
    public void SetupDefault()
    {
        var pool = new DefaultObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize);
        Begin(nameof(Default), Held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        var pool = new TeddStyleObjectPool<byte[]>(static () => new byte[BufferSize], null, PoolSize);
        _teddStyle = pool;
        Begin(nameof(TeddStyle), Held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        var pool = new StripedObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize);
        _striped = pool;
        Begin(nameof(Striped), Held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _counters.Stop(CounterStore.Key(nameof(ContentionBenchmarks), _target, [(nameof(Threads), Threads), (nameof(Held), Held)]));
        _teddStyle?.Dispose();
        _striped?.Dispose();
    }

    [Benchmark(Baseline = true, Description = PeerNames.DefaultObjectPool)]
    public void Default() => Run();

    [Benchmark(Description = PeerNames.TeddStyle)]
    public void TeddStyle() => Run();

    [Benchmark(Description = PeerNames.StripedObjectPool)]
    public void Striped() => Run();

    private void Begin(string target, Action<int> body)
    {
        _target = target;
        _body = body;
        _options = new ParallelOptions { MaxDegreeOfParallelism = Threads };
        _counters.Start();
    }

    private void Run()
    {
        Parallel.For(0, Threads, _options, _body);
        _counters.Count();
    }

    private static void OneAtATime(DefaultObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i++)
        {
            byte[] buffer = pool.Get();
            buffer[0]++;
            pool.Return(buffer);
        }
    }

    private static void FourAtATime(DefaultObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i += 4)
        {
            byte[] a = pool.Get();
            byte[] b = pool.Get();
            byte[] c = pool.Get();
            byte[] d = pool.Get();
            a[0]++;
            b[0]++;
            c[0]++;
            d[0]++;
            pool.Return(d);
            pool.Return(c);
            pool.Return(b);
            pool.Return(a);
        }
    }

    private static void OneAtATime(TeddStyleObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i++)
        {
            byte[] buffer = pool.Allocate();
            buffer[0]++;
            pool.Free(buffer);
        }
    }

    private static void FourAtATime(TeddStyleObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i += 4)
        {
            byte[] a = pool.Allocate();
            byte[] b = pool.Allocate();
            byte[] c = pool.Allocate();
            byte[] d = pool.Allocate();
            a[0]++;
            b[0]++;
            c[0]++;
            d[0]++;
            pool.Free(d);
            pool.Free(c);
            pool.Free(b);
            pool.Free(a);
        }
    }

    private static void OneAtATime(StripedObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i++)
        {
            byte[] buffer = pool.Get();
            buffer[0]++;
            pool.Return(buffer);
        }
    }

    private static void FourAtATime(StripedObjectPool<byte[]> pool)
    {
        for (int i = 0; i < OperationsPerThread; i += 4)
        {
            byte[] a = pool.Get();
            byte[] b = pool.Get();
            byte[] c = pool.Get();
            byte[] d = pool.Get();
            a[0]++;
            b[0]++;
            c[0]++;
            d[0]++;
            pool.Return(d);
            pool.Return(c);
            pool.Return(b);
            pool.Return(a);
        }
    }
}
