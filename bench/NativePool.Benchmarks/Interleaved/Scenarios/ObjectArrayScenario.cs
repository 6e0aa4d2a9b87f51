namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// <c>object[]</c> of length 100, Rent + Return on one thread: a <c>StripedArrayPool&lt;object&gt;.Create()</c> instance
/// with default options against <c>ArrayPool&lt;object&gt;.Shared</c>. Goal ≤ 0.80.
/// </summary>
public static class ObjectArrayScenario
{
    public const int Length = 100;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Striped, Shared>(
            "object[100] Create() pool vs ArrayPool.Shared",
            0.80,
            () => new Striped(StripedArrayPool<object>.Create()),
            () => default);

    private readonly struct Striped(StripedArrayPool<object> pool) : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }

    private readonly struct Shared : IOperation
    {
        public void Run(int count)
        {
            ArrayPool<object> pool = ArrayPool<object>.Shared;
            for (int i = 0; i < count; i++)
            {
                pool.Return(pool.Rent(Length));
            }
        }
    }
}
