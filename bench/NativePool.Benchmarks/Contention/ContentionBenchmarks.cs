using System.Threading.Tasks;
using NativePool.Benchmarks.Interleaved;
using Microsoft.Extensions.ObjectPool;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Contention;

/// <summary>
/// Tedd.ObjectPool's contention benchmark: one <see cref="Parallel.For(int, int, ParallelOptions, Action{int})"/>
/// of <see cref="Threads"/> bodies, each doing <see cref="ContentionWork{TPool}.OperationsPerThread"/> Get → touch → Return of a
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
    private const int BufferSize = ContentionWork<MicrosoftPoolAdapter>.BufferSize;
    private const int PoolSize = ContentionWork<MicrosoftPoolAdapter>.PoolSize;

    private readonly ThreadingCounters _counters = new();
    private IOperation _work = null!;
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
        var pool = new MicrosoftPoolAdapter(new DefaultObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize));
        Begin(nameof(Default), new ContentionWork<MicrosoftPoolAdapter>(pool, Threads, Held));
    }

    [GlobalSetup(Target = nameof(TeddStyle))]
    public void SetupTeddStyle()
    {
        _teddStyle = new TeddStyleObjectPool<byte[]>(static () => new byte[BufferSize], null, PoolSize);
        var pool = new TeddStylePoolAdapter(_teddStyle);
        Begin(nameof(TeddStyle), new ContentionWork<TeddStylePoolAdapter>(pool, Threads, Held));
    }

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped()
    {
        _striped = new StripedObjectPool<byte[]>(new FixedArrayPolicy(BufferSize), PoolSize);
        var pool = new StripedPoolAdapter<BuiltFromPolicy>(_striped);
        Begin(nameof(Striped), new ContentionWork<StripedPoolAdapter<BuiltFromPolicy>>(pool, Threads, Held));
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

    private void Begin(string target, IOperation work)
    {
        _target = target;
        _work = work;
        _counters.Start();
    }

    private void Run()
    {
        _work.Run(1); // one Parallel.For: a boxed struct, whose one interface call is nothing beside the 1 000 operations per body
        _counters.Count();
    }
}
