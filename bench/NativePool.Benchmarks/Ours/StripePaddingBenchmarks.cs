using System.Threading.Tasks;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// Padded vs unpadded stripes: <see cref="Threads"/> threads, each popping and pushing back one item on its own stripe
/// <see cref="Operations"/> times, on the engine's <see cref="StripeSet{T}"/> (headers one padded line each, stripe
/// regions line-aligned) and on a bench-only copy of the algorithm with everything packed. No two threads ever touch
/// the same stripe, so any difference is false sharing. The time is per pop+push pair of one thread (wall clock).
/// Baseline: the engine's padded stripes.
/// </summary>
/// <remarks>On a 2-core machine, 4 threads measure oversubscription.</remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Ours", "StripePadding")]
public class StripePaddingBenchmarks
{
    public const int Operations = 20_000;
    private const int Capacity = 8;
    private const int Prefill = 2;

    private StripeSet<object> _padded = null!;
    private UnpaddedStripeSet<object> _unpadded = null!;
    private ParallelOptions _options = null!;
    private Action<int> _paddedBody = null!;
    private Action<int> _unpaddedBody = null!;

    [ParamsSource(nameof(ThreadCounts))]
    public int Threads { get; set; }

    public static IEnumerable<int> ThreadCounts => BenchParams.Select([1, 2, 4], [2]);

    [GlobalSetup]
    public void Setup()
    {
        int stripes = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Threads);
        _padded = new StripeSet<object>(stripes, Capacity);
        _unpadded = new UnpaddedStripeSet<object>(stripes, Capacity);
        for (int s = 0; s < stripes; s++)
        {
            for (int i = 0; i < Prefill; i++)
            {
                _padded.TryPush(s, new object());
                _unpadded.TryPush(s, new object());
            }
        }

        _options = new ParallelOptions { MaxDegreeOfParallelism = Threads };
        StripeSet<object> padded = _padded;
        UnpaddedStripeSet<object> unpadded = _unpadded;
        _paddedBody = stripe =>
        {
            for (int i = 0; i < Operations; i++)
            {
                if (padded.TryPop(stripe, out object? item) == StripeResult.Done)
                {
                    padded.TryPush(stripe, item!);
                }
            }
        };
        _unpaddedBody = stripe =>
        {
            for (int i = 0; i < Operations; i++)
            {
                if (unpadded.TryPop(stripe, out object? item))
                {
                    unpadded.TryPush(stripe, item!);
                }
            }
        };
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Operations, Description = PeerNames.PaddedStripes)]
    public void Padded() => Parallel.For(0, Threads, _options, _paddedBody);

    [Benchmark(OperationsPerInvoke = Operations, Description = PeerNames.UnpaddedStripes)]
    public void Unpadded() => Parallel.For(0, Threads, _options, _unpaddedBody);
}
