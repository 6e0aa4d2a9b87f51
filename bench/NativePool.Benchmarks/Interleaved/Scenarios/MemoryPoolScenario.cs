namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>StripedMemoryPool&lt;byte&gt;.Shared.Rent(4096)</c> + Dispose of the owner, against <c>MemoryPool&lt;byte&gt;.Shared</c>
/// (which allocates an owner per rent). Goal ≤ 0.80, and ours allocates no more per rent (24 B there).
/// </summary>
/// <remarks>
/// A second row, reported without a goal, measures a pool that reuses its owners (<c>ReuseOwners</c>, the setting made for
/// System.IO.Pipelines): no per-rent owner and no atomic exchange on <c>Dispose</c>, which is what the first row pays to
/// make a late or raced second <c>Dispose</c> harmless. A third row, also without a goal, is the floor of any pool that
/// gives the same guarantee: one thread-static slot and no bookkeeping at all, a new 24-byte owner per rent and one
/// exchange on its <c>Dispose</c> (<see cref="ExchangeFloor"/>). What that row reads is the best the first row can reach.
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
        new InterleavedScenario<ExchangeFloor, Shared>(
            "MemoryPool Rent(4096)+Dispose through a pool that costs nothing but the owner and its exchange (floor), vs MemoryPool.Shared",
            double.PositiveInfinity,
            AllocationGoal.OursNoMoreThanPeer,
            () => default,
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

    /// <summary>
    /// The floor: a pinned buffer in one thread-static slot, handed out in a new owner whose <c>Dispose</c> takes it back
    /// with one exchange (so a second or racing <c>Dispose</c> does nothing), and parks it in the slot again.
    /// </summary>
    private readonly struct ExchangeFloor : IOperation
    {
#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
        [ThreadStatic]
        private static FloorBuffer? t_slot;
#pragma warning restore IDE1006

        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                IMemoryOwner<byte> owner = new FloorOwner(t_slot ?? new FloorBuffer());
                t_slot = null;
                owner.Dispose();
            }
        }

        private sealed class FloorOwner(FloorBuffer buffer) : IMemoryOwner<byte>
        {
            private FloorBuffer? _buffer = buffer;

            public Memory<byte> Memory => (_buffer ?? throw new ObjectDisposedException(nameof(FloorOwner))).Memory;

            public void Dispose()
            {
                FloorBuffer? buffer = System.Threading.Interlocked.Exchange(ref _buffer, null);
                if (buffer is not null)
                {
                    t_slot = buffer;
                }
            }
        }

        private sealed class FloorBuffer : MemoryManager<byte>
        {
            private readonly byte[] _array = GC.AllocateUninitializedArray<byte>(Length, pinned: true);

            public override Span<byte> GetSpan() => _array;

            public override MemoryHandle Pin(int elementIndex = 0) => default;

            public override void Unpin()
            {
            }

            protected override void Dispose(bool disposing)
            {
            }
        }
    }
}
