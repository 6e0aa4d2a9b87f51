using System.Runtime.InteropServices;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Pooled native memory against the allocator it replaces, on one thread: <c>NativeBlockPool.Shared</c> Rent(4096) +
/// Dispose against <c>NativeMemory.AlignedAlloc</c> + <c>AlignedFree</c> at the pool's alignment (goal ≤ 0.30), and
/// <c>NativeStructPool&lt;T&gt;.Shared</c> Rent() + Dispose of a 64-byte struct against <c>NativeMemory.AllocZeroed</c> +
/// <c>Free</c> (goal ≤ 0.50). Each side writes one byte through its pointer, so both touch the memory they got.
/// </summary>
public static class NativeScenarios
{
    public const int BlockLength = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<PooledBlock, AlignedBlock>(
            "NativeBlockPool.Shared Rent(4096)+Dispose vs NativeMemory.AlignedAlloc+AlignedFree",
            0.30,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => new AlignedBlock((nuint)NativeBlockPool.Shared.Alignment)),
        new InterleavedScenario<PooledStruct, ZeroedStruct>(
            "NativeStructPool<T>.Shared Rent()+Dispose (64-byte struct) vs NativeMemory.AllocZeroed+Free",
            0.50,
            AllocationGoal.OursAllocatesNothing,
            () => default,
            () => default),
    ];

    /// <summary>A 64-byte struct, the size of a small native record.</summary>
    [StructLayout(LayoutKind.Sequential, Size = 64)]
    public struct Record64
    {
        public long First;
    }

    private readonly unsafe struct PooledBlock : IOperation
    {
        public void Run(int count)
        {
            NativeBlockPool pool = NativeBlockPool.Shared;
            for (int i = 0; i < count; i++)
            {
                NativeBlockLease lease = pool.Rent(BlockLength);
                *(byte*)lease.Pointer = 1;
                lease.Dispose();
            }
        }
    }

    private readonly unsafe struct AlignedBlock(nuint alignment) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                void* block = NativeMemory.AlignedAlloc(BlockLength, alignment);
                *(byte*)block = 1;
                NativeMemory.AlignedFree(block);
            }
        }
    }

    private readonly unsafe struct PooledStruct : IOperation
    {
        public void Run(int count)
        {
            NativeStructPool<Record64> pool = NativeStructPool<Record64>.Shared;
            for (int i = 0; i < count; i++)
            {
                NativeStructLease<Record64> lease = pool.Rent();
                lease.Pointer->First = 1;
                lease.Dispose();
            }
        }
    }

    private readonly unsafe struct ZeroedStruct : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Record64* record = (Record64*)NativeMemory.AllocZeroed((nuint)sizeof(Record64));
                record->First = 1;
                NativeMemory.Free(record);
            }
        }
    }
}
