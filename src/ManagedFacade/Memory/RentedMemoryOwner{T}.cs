using System;
using System.Buffers;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// The <see cref="IMemoryOwner{T}"/> that <see cref="StripedMemoryPool{T}.Rent(int)"/> hands out: a small object made
/// for one rent, naming a pooled <see cref="PinnedMemoryOwner{T}"/> and the generation of that rent.
/// </summary>
/// <remarks>
/// The pooled owner (and its pinned array) is reused by later renters; this handle never is. Every check goes through
/// the generation it carries, so once its lease has ended its <see cref="Memory"/> throws
/// <see cref="ObjectDisposedException"/> and its <see cref="Dispose"/> does nothing, whoever holds the buffer now.
/// The generation is the rent's 64-bit number (see <see cref="PinnedBlockManager{T}"/>), so a handle kept across any
/// number of later rents of the same buffer never matches one of them.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class RentedMemoryOwner<T> : IMemoryOwner<T>
    where T : unmanaged
{
    private readonly PinnedMemoryOwner<T> _owner;
    private readonly long _generation;

    /// <summary>Wraps the lease of <paramref name="owner"/> made at <paramref name="generation"/>.</summary>
    public RentedMemoryOwner(PinnedMemoryOwner<T> owner, long generation)
    {
        _owner = owner;
        _generation = generation;
    }

    /// <summary>The memory of this rent: exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">This rent has been disposed.</exception>
    public Memory<T> Memory
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _owner.GetMemory(_generation);
    }

    /// <summary>Returns the buffer to its pool, once; later calls (and racing ones) do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _owner.EndLease(_generation);
}
