namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Rent + Return on one thread, byte, char and int at lengths 16 to 1 000 000: <c>StripedArrayPool&lt;T&gt;.Shared</c>
/// against <c>ArrayPool&lt;T&gt;.Shared</c>. Goal ≤ 0.75 in every cell. One operation is one Rent + Return pair.
/// </summary>
public static class RentReturnScenarios
{
    public const double Goal = 0.75;

    private static readonly int[] s_lengths = [16, 100, 4096, 10_000, 1_000_000];

    public static IEnumerable<InterleavedScenario> Create() =>
        Cells<byte>("byte").Concat(Cells<char>("char")).Concat(Cells<int>("int"));

    private static IEnumerable<InterleavedScenario> Cells<T>(string element) =>
        s_lengths.Select(length => new InterleavedScenario<Striped<T>, Shared<T>>(
            $"{element}[{length}] Rent+Return vs ArrayPool.Shared",
            Goal,
            () => new Striped<T>(length),
            () => new Shared<T>(length)));

    /// <summary><c>StripedArrayPool&lt;T&gt;.Shared</c> Rent(<paramref name="length"/>) + Return (the other scenarios' "ours" too).</summary>
    internal readonly struct Striped<T>(int length) : IOperation
    {
        public void Run(int count)
        {
            StripedArrayPool<T> pool = StripedArrayPool<T>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(length));
            }
        }
    }

    /// <summary><c>ArrayPool&lt;T&gt;.Shared</c> Rent(<paramref name="length"/>) + Return (the other scenarios' peer too).</summary>
    internal readonly struct Shared<T>(int length) : IOperation
    {
        public void Run(int count)
        {
            ArrayPool<T> pool = ArrayPool<T>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(length));
            }
        }
    }
}
