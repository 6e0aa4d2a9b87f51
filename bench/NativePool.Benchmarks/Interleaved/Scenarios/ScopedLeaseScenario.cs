namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>using var lease = StripedArrayPool&lt;byte&gt;.Shared.RentScoped(4096)</c> around a body that can throw (a write
/// through its span, bounds-checked), against the same body between a Rent(4096) and a Return in a <c>finally</c>: our
/// own pool's (goal ≤ 1.05: the scope costs what the try/finally that any <c>using</c> compiles to costs), and
/// <c>ArrayPool&lt;byte&gt;.Shared</c>'s (goal ≤ 1.00: the scoped call site costs no more than the shared pool's).
/// </summary>
/// <remarks>
/// A raw loop with no exception-handling region is no reference for a scope: a <c>using</c> is a try/finally, and the
/// region costs every pool alike. A third row, reported without a goal, measures that region on our own pool: the
/// try/finally against the same calls without one.
/// </remarks>
public static class ScopedLeaseScenario
{
    public const int Length = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Scoped, TryFinally>(
            "RentScoped(4096), body that can throw, vs our Rent + Return in a finally", 1.05, () => default, () => default),
        new InterleavedScenario<Scoped, SharedTryFinally>(
            "RentScoped(4096), body that can throw, vs ArrayPool.Shared Rent + Return in a finally", 1.00, () => default, () => default),
        new InterleavedScenario<TryFinally, Raw>(
            "Rent(4096) with Return in a finally vs raw Rent+Return", double.PositiveInfinity, () => default, () => default),
    ];

    private readonly struct Scoped : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                using var lease = pool.RentScoped(Length);
                lease.Span[0] = 1;
            }
        }
    }

    private readonly struct TryFinally : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent(Length);
                try
                {
                    array[0] = 1;
                }
                finally
                {
                    pool.Return(array);
                }
            }
        }
    }

    private readonly struct SharedTryFinally : IOperation
    {
        public void Run(int count)
        {
            ArrayPool<byte> pool = ArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent(Length);
                try
                {
                    array[0] = 1;
                }
                finally
                {
                    pool.Return(array);
                }
            }
        }
    }

    private readonly struct Raw : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent(Length);
                array[0] = 1;
                pool.Return(array);
            }
        }
    }
}
