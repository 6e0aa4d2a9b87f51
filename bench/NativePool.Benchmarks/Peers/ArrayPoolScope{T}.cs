using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Peers;

/// <summary>
/// Test_BufferPools' "scoped" peer: a struct that rents from <see cref="ArrayPool{T}.Shared"/> when created and returns the
/// array when disposed, for <c>using</c> statements. Deliberately minimal (no double-dispose guard), as such wrappers
/// usually are, so its row shows what the wrapping costs on top of the raw calls.
/// </summary>
/// <typeparam name="T">The element type.</typeparam>
public readonly struct ArrayPoolScope<T> : IDisposable
{
    private readonly T[] _array;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ArrayPoolScope(int minimumLength) => _array = ArrayPool<T>.Shared.Rent(minimumLength);

    /// <summary>The rented array.</summary>
    public T[] Array => _array;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => ArrayPool<T>.Shared.Return(_array);
}
