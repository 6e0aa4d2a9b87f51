using System.Runtime.InteropServices;
using static NativePool.Benchmarks.Interleaved.Scenarios.NativeScenarios;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// The native leases in their documented <c>using</c> form, around a body that can throw (a checked write through the
/// lease): <c>using var lease = NativeBlockPool.Shared.Rent(4096)</c> against the same rent disposed in a hand-written
/// <c>finally</c> (goal ≤ 1.05), and <c>using var lease = NativeStructPool&lt;T&gt;.Shared.Rent()</c> of a 64-byte struct,
/// written through <c>Value</c>, against <c>NativeMemory.AllocZeroed</c> with <c>Free</c> in a <c>finally</c> (goal ≤ 0.50).
/// </summary>
public static class NativeScopeScenarios
{
    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<UsingBlock, TryFinallyBlock>(
            "NativeBlockPool Rent(4096) in a using, body that can throw, vs the lease disposed in a finally",
            1.05,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => default),
        new InterleavedScenario<UsingStruct, TryFinallyZeroed>(
            "NativeStructPool<T>.Shared Rent() in a using (64-byte struct), body that can throw, vs NativeMemory.AllocZeroed + Free in a finally",
            0.50,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => default),
    ];

    private readonly struct UsingBlock : IOperation
    {
        public void Run(int count)
        {
            NativeBlockPool pool = NativeBlockPool.Shared;
            for (int i = 0; i < count; i++)
            {
                using var lease = pool.Rent(BlockLength);
                lease.Span[0] = 1;
            }
        }
    }

    private readonly struct TryFinallyBlock : IOperation
    {
        public void Run(int count)
        {
            NativeBlockPool pool = NativeBlockPool.Shared;
            for (int i = 0; i < count; i++)
            {
                NativeBlockLease lease = pool.Rent(BlockLength);
                try
                {
                    lease.Span[0] = 1;
                }
                finally
                {
                    lease.Dispose();
                }
            }
        }
    }

    private readonly struct UsingStruct : IOperation
    {
        public void Run(int count)
        {
            NativeStructPool<Record64> pool = NativeStructPool<Record64>.Shared;
            for (int i = 0; i < count; i++)
            {
                using var lease = pool.Rent();
                lease.Value.First = 1;
            }
        }
    }

    private readonly unsafe struct TryFinallyZeroed : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Record64* record = (Record64*)NativeMemory.AllocZeroed((nuint)sizeof(Record64));
                try
                {
                    record->First = 1;
                }
                finally
                {
                    NativeMemory.Free(record);
                }
            }
        }
    }
}
