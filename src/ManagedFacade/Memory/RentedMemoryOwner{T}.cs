using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// The <see cref="IMemoryOwner{T}"/> that <see cref="StripedMemoryPool{T}.Rent(int)"/> hands out: a small object made
/// for one rent, whose only state is the pooled <see cref="PinnedMemoryOwner{T}"/> it leases (24 bytes on 64-bit, as
/// the runtime's own per-rent owner).
/// </summary>
/// <remarks>
/// The pooled owner is reused; this handle never is. <see cref="Dispose"/> takes the reference out with one exchange, so
/// exactly one of any number of disposes, on any threads, returns the buffer; afterwards <see cref="Memory"/> throws
/// <see cref="ObjectDisposedException"/> and <see cref="Dispose"/> does nothing.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
internal sealed class RentedMemoryOwner<T> : IMemoryOwner<T>
    where T : unmanaged
{
    private PinnedMemoryOwner<T>? _owner;

    /// <summary>Wraps the current lease of <paramref name="owner"/>, which the caller has just made.</summary>
    public RentedMemoryOwner(PinnedMemoryOwner<T> owner) => _owner = owner;

    /// <summary>The rented memory, exactly the requested length.</summary>
    /// <exception cref="ObjectDisposedException">This owner has been disposed.</exception>
    public Memory<T> Memory
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            // Volatile: a Dispose on another thread clears the reference; a reader racing it is the caller's own race.
            PinnedMemoryOwner<T>? owner = Volatile.Read(ref _owner);
            if (owner is null)
            {
                ThrowHelper.ThrowObjectDisposed(nameof(IMemoryOwner<T>));
            }

            return owner.GetMemory();
        }
    }

    /// <summary>Returns the buffer to its pool, once: later and racing calls do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose()
    {
        // Exchange: two disposes on two threads race for the reference; only the one that takes it ends the lease.
        PinnedMemoryOwner<T>? owner = Interlocked.Exchange(ref _owner, null);
        if (owner is not null)
        {
            // Nothing else can end this lease (the pooled owner ignores its own Dispose in a pool that hands out handles),
            // so the winner of the exchange ends it with a plain store: one atomic instruction per rent and dispose.
            owner.EndHandleLease();
        }
    }
}
