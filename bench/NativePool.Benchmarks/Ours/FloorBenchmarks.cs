using System.Runtime.CompilerServices;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// The floor: the least any thread-safe pool can do for a Rent+Return pair on one thread is to take an array out of a
/// <c>[ThreadStatic]</c> slot and put it back. That bare swap is the baseline; our Rent(4096)+Return is measured against
/// it (and <see cref="ArrayPool{T}.Shared"/> beside it for reference).
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Ours", "Floor")]
public class FloorBenchmarks
{
    public const int Size = 4096;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static byte[]? t_slot;
#pragma warning restore IDE1006

    [Benchmark(Baseline = true, Description = PeerNames.ThreadStaticSwap)]
    public byte[] ThreadStaticSwap()
    {
        byte[] array = Take();
        t_slot = array;
        return array;
    }

    [Benchmark(Description = PeerNames.StripedArrayPool)]
    public byte[] Striped()
    {
        byte[] array = StripedArrayPool<byte>.Shared.Rent(Size);
        StripedArrayPool<byte>.Shared.Return(array);
        #pragma warning disable NP0002 // The reference is returned so the rent cannot be optimized away; nothing reads it.
        return array;
        #pragma warning restore NP0002
    }

    [Benchmark(Description = PeerNames.ArrayPoolShared)]
    public byte[] ArrayPoolShared()
    {
        byte[] array = ArrayPool<byte>.Shared.Rent(Size);
        ArrayPool<byte>.Shared.Return(array);
        #pragma warning disable NP0002 // The reference is returned so the rent cannot be optimized away; nothing reads it.
        return array;
        #pragma warning restore NP0002
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static byte[] Take()
    {
        byte[]? array = t_slot;
        if (array is null)
        {
            return new byte[Size];
        }

        t_slot = null;
        return array;
    }
}
