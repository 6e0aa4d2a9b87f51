using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Reporting;

/// <summary>The goals of issue 5 (and the two of issue 3 the same suites measure), in the order the issue lists them.</summary>
public static class Goals
{
    private const string ObjectPoolMissing = "no StripedObjectPool rows in these results (run the object suites to judge this goal)";
    private const string MemoryPoolMissing = "no StripedMemoryPool rows in these results (run the buffers or MemoryPool suites to judge this goal)";

    public static IReadOnlyList<Goal> All { get; } =
    [
        new Goal
        {
            Scenario = "buffers, every cell",
            Peer = PeerNames.ArrayPoolShared,
            Target = "≤ 1.0 always, aiming at 0.8; 0 B",
            Limit = 1.0,
            Aim = 0.8,
            ZeroAllocation = true,
            Suites = IsBuffers,
            Ours = PeerNames.StripedArrayPool,
            Against = PeerNames.ArrayPoolShared,
            MissingReason = "the buffers suite did not run",
        },
        new Goal
        {
            Scenario = "scoped lease",
            Peer = "our raw Rent+Return",
            Target = "≤ 1.05",
            Limit = 1.05,
            Suites = IsBuffers,
            Ours = PeerNames.StripedArrayPoolScoped,
            Against = PeerNames.StripedArrayPool,
            MissingReason = "the buffers suite did not run",
        },
        new Goal
        {
            Scenario = "MemoryPool Rent+Dispose",
            Peer = PeerNames.MemoryPoolShared,
            Target = "≤ 0.5, 0 B",
            Limit = 0.5,
            ZeroAllocation = true,
            Suites = static key => IsBuffers(key) || key == "MemoryPoolRentDisposeBenchmarks",
            Ours = PeerNames.StripedMemoryPool,
            Against = PeerNames.MemoryPoolShared,
            MissingReason = MemoryPoolMissing,
        },
        ObjectGoal("GetReturnSingle", "Objects.GetReturnSingleBenchmarks", 0.4),
        ObjectGoal("GetReturnMulti", "Objects.GetReturnMultiBenchmarks", 0.7),
        ObjectGoal("DrainRefillSingle", "Objects.DrainRefillSingleBenchmarks", 0.5),
        ObjectGoal("DrainRefillMulti", "Objects.DrainRefillMultiBenchmarks", 0.7),
        ContentionGoal(1, PeerNames.TeddStyle, "≤ 1.0", 1.0, atThirtyTwo: false),
        ContentionGoal(1, PeerNames.DefaultObjectPool, "≤ 0.1 at 32 threads", 0.1, atThirtyTwo: true),
        ContentionGoal(4, PeerNames.TeddStyle, "≤ 0.5", 0.5, atThirtyTwo: false),
        ContentionGoal(4, PeerNames.DefaultObjectPool, "≤ 0.1 at 32 threads", 0.1, atThirtyTwo: true),
        new Goal
        {
            Scenario = "burst 1 024 × 4 KiB",
            Peer = PeerNames.ArrayPoolShared,
            Target = "≤ 0.2, 0 B",
            Limit = 0.2,
            ZeroAllocation = true,
            Suites = static key => key == "Ours.BurstBenchmarks",
            Ours = PeerNames.StripedArrayPool,
            Against = PeerNames.ArrayPoolShared,
            MissingReason = "the burst suite did not run",
        },
        new Goal
        {
            Scenario = "producer/consumer",
            Peer = PeerNames.ArrayPoolShared,
            Target = "≤ 0.7",
            Limit = 0.7,
            Suites = static key => key == "Ours.ProducerConsumerBenchmarks",
            Ours = PeerNames.StripedArrayPool,
            Against = PeerNames.ArrayPoolShared,
            MissingReason = "the producer/consumer suite did not run",
        },
        new Goal
        {
            Scenario = "floor",
            Peer = PeerNames.ThreadStaticSwap,
            Target = "≤ 2.0",
            Limit = 2.0,
            Suites = static key => key == "Ours.FloorBenchmarks",
            Ours = PeerNames.StripedArrayPool,
            Against = PeerNames.ThreadStaticSwap,
            MissingReason = "the floor suite did not run",
        },
        new Goal
        {
            Scenario = "Create() instances",
            Peer = PeerNames.StripedArrayPool,
            Target = "≤ 1.1",
            Limit = 1.1,
            Suites = static key => key == "Ours.CreateInstancesBenchmarks",
            Ours = PeerNames.StripedArrayPoolCreate,
            Against = PeerNames.StripedArrayPool,
            MissingReason = "the Create() instances suite did not run",
        },
    ];

    private static bool IsBuffers(string key) => key.StartsWith("Buffers.BufferRentReturnBenchmarks", StringComparison.Ordinal);

    private static Goal ObjectGoal(string scenario, string suite, double limit) => new()
    {
        Scenario = scenario,
        Peer = PeerNames.DefaultObjectPool,
        Target = $"≤ {limit:0.0#}",
        Limit = limit,
        Suites = key => key == suite,
        Ours = PeerNames.StripedObjectPool,
        Against = PeerNames.DefaultObjectPool,
        MissingReason = ObjectPoolMissing,
    };

    private static Goal ContentionGoal(int held, string peer, string target, double limit, bool atThirtyTwo) => new()
    {
        Scenario = held == 1 ? "contention, 1 item per thread" : $"contention, {held} items per thread",
        Peer = peer,
        Target = target,
        Limit = limit,
        Suites = static key => key == "Contention.ContentionBenchmarks",
        Cells = row => row.IntParameter("Held") == held && (!atThirtyTwo || row.IntParameter("Threads") == 32),
        Ours = PeerNames.StripedObjectPool,
        Against = peer,
        MissingReason = ObjectPoolMissing,
    };
}
