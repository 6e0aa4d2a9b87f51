using NativePool.Benchmarks.Interleaved.Scenarios;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// The burst scenario (<see cref="BurstScenario"/>, where its goal is judged) for publication: 1 024 rents of 4 KiB on
/// one thread, then as many returns. Baseline: <c>ArrayPool&lt;byte&gt;.Shared</c>.
/// </summary>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Ours", "Burst")]
public class BurstBenchmarks
{
    private readonly byte[][] _held = new byte[BurstScenario.Count][];

    [Benchmark(Baseline = true, Description = PeerNames.ArrayPoolShared)]
    public void ArrayPoolShared() => new BurstScenario.Work<SharedBytes>(_held).Run(1);

    [Benchmark(Description = PeerNames.StripedArrayPool)]
    public void Striped() => new BurstScenario.Work<StripedBytes>(_held).Run(1);
}
