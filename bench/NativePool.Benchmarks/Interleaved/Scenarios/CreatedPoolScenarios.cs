using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// An independent pool (<c>StripedArrayPool&lt;byte&gt;.Create()</c>, default options) Rent(4096) + Return on one thread,
/// against <c>ArrayPool&lt;byte&gt;.Shared</c>, at two kinds of call site: the pool's own loop, and a method that also
/// serves <c>StripedArrayPool&lt;byte&gt;.Shared</c> (so the JIT can fold nothing about which pool it calls). Goal ≤ 0.85
/// at both.
/// </summary>
public static class CreatedPoolScenarios
{
    public const int Length = 4096;

    public const double Goal = 0.85;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<OwnSite, SharedPeer>(
            "byte[4096] Create() pool, own call site, vs ArrayPool.Shared",
            Goal,
            () => new OwnSite(StripedArrayPool<byte>.Create()),
            () => default),
        new InterleavedScenario<MixedSite, MixedPeer>(
            "byte[4096] Create() pool, call site shared with Shared, vs ArrayPool.Shared",
            Goal,
            () => new MixedSite(StripedArrayPool<byte>.Create()),
            () => default),
    ];

    private readonly struct OwnSite(StripedArrayPool<byte> pool) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct SharedPeer : IOperation
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = ArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct MixedSite(StripedArrayPool<byte> pool) : IOperation
    {
        public void Run(int count)
        {
            // The same method body serves Shared too (once per batch), as library code handed either pool would.
            RentReturn(StripedArrayPool<byte>.Shared, 1);
            RentReturn(pool, count);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void RentReturn(StripedArrayPool<byte> pool, int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct MixedPeer : IOperation
    {
        public void Run(int count)
        {
            RentReturn(ArrayPool<byte>.Shared, 1);
            RentReturn(ArrayPool<byte>.Shared, count);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void RentReturn(ArrayPool<byte> pool, int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }
}
