using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// The floor: our <c>StripedArrayPool&lt;byte&gt;.Shared</c> Rent(4096) + Return against the least any thread-safe pool
/// can do, taking an array out of a <c>[ThreadStatic]</c> field and putting it back, in shapes a real call site has.
/// </summary>
/// <remarks>
/// <para>
/// A swap written inline in a loop is no floor: the JIT hoists its thread-static address out of the loop (on Linux x64
/// the <c>__tls_get_addr</c> call runs once per batch, then each iteration is two plain stores), which no call site that
/// rents once per call can do. So each side here does its pair in a method of its own that is not inlined, called once
/// per operation: both pay one call, and each reads its thread static on every operation. Goal ≤ 2.5.
/// </para>
/// <para>
/// Two rows, reported without a goal, call Rent and Return each as its own non-inlined method on both sides, as code
/// that rents in one method and returns in another does: ours against the swap, and ours against
/// <c>ArrayPool&lt;byte&gt;.Shared</c> in the same shape.
/// </para>
/// </remarks>
public static class FloorScenario
{
    public const int Length = 4096;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static byte[]? t_slot;
#pragma warning restore IDE1006

    public static IEnumerable<InterleavedScenario> Create() =>
    [
        new InterleavedScenario<StripedPairPerCall, SwapPairPerCall>(
            "Rent(4096)+Return vs ThreadStatic swap, one pair per call (floor)", 2.5, () => default, () => default),
        new InterleavedScenario<StripedCallEach, SwapCallEach>(
            "Rent(4096)+Return vs ThreadStatic swap, Rent and Return each its own call", double.PositiveInfinity, () => default, () => default),
        new InterleavedScenario<StripedCallEach, SharedCallEach>(
            "Rent(4096)+Return, Rent and Return each its own call, vs ArrayPool.Shared", double.PositiveInfinity, () => default, () => default),
    ];

    private readonly struct StripedPairPerCall : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Pair();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Pair()
        {
            StripedArrayPool<byte> pool = StripedArrayPool<byte>.Shared;
            pool.Return(pool.Rent(Length));
        }
    }

    private readonly struct SwapPairPerCall : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Pair();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Pair() => t_slot = Take();
    }

    private readonly struct StripedCallEach : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Return(Rent());
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static byte[] Rent() => StripedArrayPool<byte>.Shared.Rent(Length);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Return(byte[] array) => StripedArrayPool<byte>.Shared.Return(array);
    }

    private readonly struct SwapCallEach : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Return(Rent());
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static byte[] Rent() => Take();

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Return(byte[] array) => t_slot = array;
    }

    private readonly struct SharedCallEach : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                Return(Rent());
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static byte[] Rent() => ArrayPool<byte>.Shared.Rent(Length);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Return(byte[] array) => ArrayPool<byte>.Shared.Return(array);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static byte[] Take()
    {
        byte[]? array = t_slot;
        if (array is null)
        {
            return new byte[Length];
        }

        t_slot = null;
        return array;
    }
}
