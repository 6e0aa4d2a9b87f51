using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// An independent pool (<c>StripedArrayPool&lt;byte&gt;.Create()</c>, default options) Rent(4096) + Return on one thread,
/// against <c>ArrayPool&lt;byte&gt;.Shared</c>, at two kinds of call site: the pool's own loop, and a method that also
/// serves <c>StripedArrayPool&lt;byte&gt;.Shared</c> (so the JIT can fold nothing about which pool it calls). Goal ≤ 0.85
/// at both.
/// </summary>
/// <remarks>
/// Two more rows, reported without a goal, run <c>StripedArrayPool&lt;byte&gt;.Shared</c> itself through the same two
/// call sites: what a Create() pool would cost if finding its thread's cache were free, so the gap between a Create()
/// row and its floor row is the price of that look-up. A fifth, also reported, alternates two Create() pools on one
/// thread, one Rent + Return each in turn: the price of finding a thread's cache when the pool changes every operation.
/// </remarks>
public static class CreatedPoolScenarios
{
    public const int Length = 4096;

    public const double Goal = 0.85;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<OwnSite<CreatedPool>, SharedPeer>(
            "byte[4096] Create() pool, own call site, vs ArrayPool.Shared",
            Goal,
            () => new OwnSite<CreatedPool>(StripedArrayPool<byte>.Create()),
            () => default),
        new InterleavedScenario<MixedSite<CreatedPool>, MixedPeer>(
            "byte[4096] Create() pool, call site shared with Shared, vs ArrayPool.Shared",
            Goal,
            () => new MixedSite<CreatedPool>(StripedArrayPool<byte>.Create()),
            () => default),
        new InterleavedScenario<OwnSite<SharedPool>, SharedPeer>(
            "byte[4096] Shared pool through the Create() pool's own call site (its floor), vs ArrayPool.Shared",
            double.PositiveInfinity,
            () => new OwnSite<SharedPool>(StripedArrayPool<byte>.Shared),
            () => default),
        new InterleavedScenario<MixedSite<SharedPool>, MixedPeer>(
            "byte[4096] Shared pool through the call site shared with Shared (its floor), vs ArrayPool.Shared",
            double.PositiveInfinity,
            () => new MixedSite<SharedPool>(StripedArrayPool<byte>.Shared),
            () => default),
        new InterleavedScenario<Alternating, SharedPeer>(
            "byte[4096] two Create() pools taking turns on one thread, vs ArrayPool.Shared",
            double.PositiveInfinity,
            () => new Alternating(StripedArrayPool<byte>.Create(), StripedArrayPool<byte>.Create()),
            () => default),
    ];

    /// <summary>Marks the loops that serve a Create() pool (each marker gets its own compiled loop, so each loop serves one pool).</summary>
    private readonly struct CreatedPool;

    /// <summary>Marks the loops that serve the Shared pool.</summary>
    private readonly struct SharedPool;

    private readonly struct OwnSite<TPool>(StripedArrayPool<byte> pool) : IOperation
        where TPool : struct
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct Alternating(StripedArrayPool<byte> first, StripedArrayPool<byte> second) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                StripedArrayPool<byte> pool = (i & 1) == 0 ? first : second;
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

    private readonly struct MixedSite<TPool>(StripedArrayPool<byte> pool) : IOperation
        where TPool : struct
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
