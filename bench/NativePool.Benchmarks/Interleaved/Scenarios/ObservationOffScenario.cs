namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// What diagnostics cost when nobody observes pools: <c>StripedArrayPool&lt;byte&gt;.Shared</c> Rent(4096) + Return as
/// users call it (one static flag read per rent and per return, for the event source and guarded mode) against the
/// very same code compiled without that read. Goal ≤ 1.02: within noise.
/// </summary>
public static class ObservationOffScenario
{
    public const int Length = 4096;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Checked, Skipped>(
            "byte[4096] diagnostics off vs no diagnostics check",
            1.02,
            () => default,
            () => default);

    private readonly struct Checked : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct Skipped : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            for (int i = 0; i < count; i++)
            {
                // The public calls' own shape (the table read first, then the inlined body), minus the flag.
                pool.Return<ObservationSkipped>(pool.Rent<ObservationSkipped>(Length, ThreadCacheTable.Current), false, ThreadCacheTable.Current);
            }
        }
    }
}
