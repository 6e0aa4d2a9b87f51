namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>using var lease = StripedMemoryPool&lt;byte&gt;.Shared.RentLease(4096)</c> around a body that can throw (a write
/// through its span, bounds-checked), against the same body between a Rent(4096) and a Dispose of the owner in a
/// <c>finally</c>: our own pool's (goal ≤ 1.05: the allocation-free lease costs no more than the owner it replaces) and
/// <c>MemoryPool&lt;byte&gt;.Shared</c>'s (goal ≤ 1.00). The lease allocates nothing; both owners allocate 24 B.
/// </summary>
public static class MemoryLeaseScopeScenario
{
    public const int Length = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Leased, TryFinally>(
            "MemoryPool RentLease(4096) in a using, body that can throw, vs our Rent + Dispose in a finally",
            1.05,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => default),
        new InterleavedScenario<Leased, SharedTryFinally>(
            "MemoryPool RentLease(4096) in a using, body that can throw, vs MemoryPool.Shared Rent + Dispose in a finally",
            1.00,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => default),
    ];

    private readonly struct Leased : IOperation
    {
        public void Run(int count)
        {
            StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                using var lease = pool.RentLease(Length);
                lease.Span[0] = 1;
            }
        }
    }

    private readonly struct TryFinally : IOperation
    {
        public void Run(int count)
        {
            StripedMemoryPool<byte> pool = StripedMemoryPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                IMemoryOwner<byte> owner = pool.Rent(Length);
                try
                {
                    owner.Memory.Span[0] = 1;
                }
                finally
                {
                    owner.Dispose();
                }
            }
        }
    }

    private readonly struct SharedTryFinally : IOperation
    {
        public void Run(int count)
        {
            MemoryPool<byte> pool = MemoryPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                IMemoryOwner<byte> owner = pool.Rent(Length);
                try
                {
                    owner.Memory.Span[0] = 1;
                }
                finally
                {
                    owner.Dispose();
                }
            }
        }
    }
}
