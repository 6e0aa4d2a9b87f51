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
        var pool = new MicrosoftPoolAdapter<byte[]>(new DefaultObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize));
        Begin(nameof(Default), Held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        _teddStyle = new TeddStyleObjectPool<byte[]>(static () => new byte[BufferSize], null, PoolSize);
        var pool = new TeddStylePoolAdapter<byte[]>(_teddStyle);
        Begin(nameof(TeddStyle), Held == 1 ? _ => OneAtATime(pool) : _ => FourAtATime(pool));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        _striped = new StripedObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize);
        var pool = new StripedPoolAdapter<byte[]>(_striped);
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

    private static void OneAtATime<TPool>(TPool pool)
        where TPool : struct, IObjectPoolAdapter<byte[]>
    {
        for (int i = 0; i < OperationsPerThread; i++)
        {
            byte[] buffer = pool.Take();
            buffer[0]++;
            pool.Give(buffer);
        }
    }

    private static void FourAtATime<TPool>(TPool pool)
        where TPool : struct, IObjectPoolAdapter<byte[]>
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
