namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>using var lease = StripedArrayPool&lt;byte&gt;.Shared.RentScoped(4096)</c> and a write through its span, against our
/// raw Rent(4096) + write + Return. Goal ≤ 1.05: the lease costs next to nothing over the raw calls.
/// </summary>
public static class ScopedLeaseScenario
{
    public const int Length = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Scoped, Raw>("RentScoped(4096) lease vs raw Rent+Return", 1.05, () => default, () => default);

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
