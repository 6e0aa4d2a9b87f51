namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// The ways real code rents arrays besides one size in a tight loop, each with a body that touches what it rents:
/// mixed sizes (64 B to 256 KiB in a fixed pseudo-random order), three nested rents of different sizes, two buffers of
/// one size held at once with a copy between them, and large arrays (1 MiB and 8 MiB). Ours is
/// <c>StripedArrayPool&lt;byte&gt;.Shared</c>, the peer <c>ArrayPool&lt;byte&gt;.Shared</c>, each side in its own loop.
/// Goal ≤ 1.00 (never slower where users call it).
/// </summary>
public static class CallPatternScenarios
{
    public const double Goal = 1.00;

    /// <summary>The mixed-size sequence: 64 lengths from 64 B to 256 KiB, the same order for both sides.</summary>
    private static readonly int[] s_mixed = MixedLengths();

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Mixed<Striped>, Mixed<Bcl>>(
            "app: mixed sizes 64 B-256 KiB, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<Nested<Striped>, Nested<Bcl>>(
            "app: nested rents 1 KiB > 16 KiB > 64 KiB, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<TwoHeld<Striped>, TwoHeld<Bcl>>(
            "app: two 16 KiB arrays held at once, copy one into the other, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
        new InterleavedScenario<Large<Striped>, Large<Bcl>>(
            "app: large arrays 1 MiB and 8 MiB, touch one page each, vs ArrayPool.Shared", Goal, AllocationGoal.OursNoMoreThanPeer, () => default, () => default),
    ];

    private static int[] MixedLengths()
    {
        var random = new Random(20261127);
        var lengths = new int[64];
        for (int i = 0; i < lengths.Length; i++)
        {
            // Log-uniform over 2^6 .. 2^18, with the lengths between powers of two that callers actually ask for.
            lengths[i] = (int)Math.Pow(2, 6 + (random.NextDouble() * 12));
        }

        return lengths;
    }

    private readonly struct Mixed<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            int[] lengths = s_mixed;
            int sum = 0;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent(lengths[i & 63]);
                array[0] = (byte)i;
                array[^1] = (byte)i;
                sum += array[0];
                pool.Return(array);
            }

            GC.KeepAlive(sum);
        }
    }

    private readonly struct Nested<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                byte[] outer = pool.Rent(1024);
                byte[] middle = pool.Rent(16 * 1024);
                byte[] inner = pool.Rent(64 * 1024);
                inner[0] = (byte)i;
                middle[0] = inner[0];
                outer[0] = middle[0];
                pool.Return(inner);
                pool.Return(middle);
                pool.Return(outer);
            }
        }
    }

    private readonly struct TwoHeld<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                byte[] first = pool.Rent(16 * 1024);
                byte[] second = pool.Rent(16 * 1024);
                first.AsSpan(0, 16 * 1024).CopyTo(second);
                pool.Return(second);
                pool.Return(first);
            }
        }
    }

    private readonly struct Large<TPool> : IOperation
        where TPool : struct, ISharedPool
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = TPool.Pool;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent((i & 1) == 0 ? 1024 * 1024 : 8 * 1024 * 1024);
                array.AsSpan(0, 4096).Fill((byte)i);
                pool.Return(array);
            }
        }
    }
}
