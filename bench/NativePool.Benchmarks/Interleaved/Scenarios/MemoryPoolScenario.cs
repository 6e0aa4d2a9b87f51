namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>StripedMemoryPool&lt;byte&gt;.Shared.Rent(4096)</c> + Dispose of the owner, against <c>MemoryPool&lt;byte&gt;.Shared</c>
/// (which allocates an owner per rent). Goal ≤ 0.80, and ours allocates no more per rent (24 B there).
/// </summary>
public static class MemoryPoolScenario
{
    public const int Length = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Striped, Shared>(
            "MemoryPool Rent(4096)+Dispose vs MemoryPool.Shared", 0.80, AllocationGoal.OursNoMoreThanPeer, () => default, () => default);

    private readonly struct Striped : IOperation
    {
        public void Run(int count)
        {
            StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Shared;
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
