namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>StripedMemoryPool&lt;byte&gt;.Shared.Rent(4096)</c> + Dispose of the owner, against <c>MemoryPool&lt;byte&gt;.Shared</c>
/// (which allocates an owner per rent). Goal ≤ 0.80, and ours allocates no more per rent (24 B there).
/// </summary>
/// <remarks>
/// A second row, reported without a goal, measures a pool that reuses its owners (<c>ReuseOwners</c>, the setting made for
/// System.IO.Pipelines): no per-rent owner and no atomic exchange on <c>Dispose</c>, which is what the first row pays to
/// make a late or raced second <c>Dispose</c> harmless.
/// </remarks>
public static class MemoryPoolScenario
{
    public const int Length = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Striped, Shared>(
            "MemoryPool Rent(4096)+Dispose vs MemoryPool.Shared",
            0.80,
            AllocationGoal.OursNoMoreThanPeer,
            () => new Striped(StripedMemoryPool<byte>.Shared),
            () => default),
        new InterleavedScenario<Striped, Shared>(
            "MemoryPool Rent(4096)+Dispose, pool reusing owners, vs MemoryPool.Shared",
            double.PositiveInfinity,
            () => new Striped(StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { ReuseOwners = true })),
            () => default),
    ];

    private readonly struct Striped(StripedMemoryPool<byte> pool) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Rent(Length).Dispose();
            }
        }
    }

    private readonly struct Shared : IOperation
    {
        public void Run(int count)
        {
            MemoryPool<byte> pool = MemoryPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Rent(Length).Dispose();
            }
        }
    }
}
