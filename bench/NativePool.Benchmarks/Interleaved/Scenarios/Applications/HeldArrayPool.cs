using System.Numerics;

namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// The cheapest pool there is, for floor rows: a few arrays per power-of-two class held in plain fields, taken and put
/// back with no thread safety, no checks and no statistics. Its arrays come from <c>StripedArrayPool&lt;byte&gt;.Shared</c>,
/// so they sit in memory where ours sit; a row that runs through it measures our placement with the pool's own cost
/// taken away. One thread only: the interleaved runner calls every operation on its one thread.
/// </summary>
internal sealed class HeldArrayPool : ArrayPool<byte>
{
    private const int Classes = 32;
    private const int Depth = 4;

    private readonly byte[]?[] _arrays = new byte[Classes * Depth][];
    private readonly int[] _counts = new int[Classes];

    public override byte[] Rent(int minimumLength)
    {
        int index = ClassOf(minimumLength);
        int count = _counts[index];
        if (count == 0)
        {
            return StripedArrayPool<byte>.Shared.Rent(1 << index);
        }

        _counts[index] = --count;
        return _arrays[(index * Depth) + count]!;
    }

    public override void Return(byte[] array, bool clearArray = false)
    {
        int index = ClassOf(array.Length);
        int count = _counts[index];
        if (count == Depth)
        {
            StripedArrayPool<byte>.Shared.Return(array);
            return;
        }

        _arrays[(index * Depth) + count] = array;
        _counts[index] = count + 1;
    }

    private static int ClassOf(int length) => BitOperations.Log2((uint)Math.Max(length, 16) - 1) + 1;
}
