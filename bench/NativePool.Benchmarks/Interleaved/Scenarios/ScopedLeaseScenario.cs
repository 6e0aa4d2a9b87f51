namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>using var lease = StripedArrayPool&lt;byte&gt;.Shared.RentScoped(4096)</c> and a write through its span, against our
/// raw Rent(4096) + write + Return. Goal ≤ 1.05: the lease costs next to nothing over the raw calls.
/// </summary>
/// <remarks>
/// A second row, reported without a goal, measures the cheapest scope there can be: the raw calls with the return in a
/// <c>finally</c>, which is what any <c>using</c> compiles to, with no guard of any kind. What the first row pays beyond
/// the second is the scope's own work; what the second pays beyond the raw calls is the exception-handling region.
/// </remarks>
public static class ScopedLeaseScenario
{
    public const int Length = 4096;

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<Scoped, Raw>("RentScoped(4096) lease vs raw Rent+Return", 1.05, () => default, () => default),
        new InterleavedScenario<TryFinally, Raw>("Rent(4096) with Return in a finally vs raw Rent+Return", double.PositiveInfinity, () => default, () => default),
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
