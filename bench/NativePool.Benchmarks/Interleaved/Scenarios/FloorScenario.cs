using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// The floor: our <c>StripedArrayPool&lt;byte&gt;.Shared</c> Rent(4096) + Return against the least any thread-safe pool
/// can do, taking an array out of a <c>[ThreadStatic]</c> field and putting it back. Goal ≤ 2.5.
/// </summary>
public static class FloorScenario
{
    public const int Length = 4096;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static byte[]? t_slot;
#pragma warning restore IDE1006

    public static InterleavedScenario Create() =>
        new InterleavedScenario<RentReturnScenarios.Striped<byte>, ThreadStaticSwap>(
            "Rent(4096)+Return vs ThreadStatic swap (floor)", 2.5, () => new(Length), () => default);

    private readonly struct ThreadStaticSwap : IOperation
    {
        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                t_slot = Take();
            }
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
}
