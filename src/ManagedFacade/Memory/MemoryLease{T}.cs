using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A pinned buffer rented from a <see cref="StripedMemoryPool{T}"/> under a lease that may be stored, passed on or kept across an <see langword="await"/>: <c>using var lease = pool.RentLease(n);</c>. Disposing it returns the buffer once.</summary>
/// <remarks>
/// A struct that allocates nothing and carries its owner's generation, so, unlike a kept <see cref="IMemoryOwner{T}"/>
/// reference, a stale lease never returns a newer renter's buffer; its <see cref="Memory"/> and <see cref="Span"/>
/// throw <see cref="ObjectDisposedException"/> once it has ended.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
[StructLayout(LayoutKind.Auto)]
public readonly struct MemoryLease<T> : IDisposable, IEquatable<MemoryLease<T>>
    where T : unmanaged
{
    private readonly PinnedLease<PinnedMemoryOwner<T>, T> _lease;
    private readonly int _length;

    internal MemoryLease(PinnedMemoryOwner<T> owner, long generation, int length)
    {
        _lease = new PinnedLease<PinnedMemoryOwner<T>, T>(owner, generation);
        _length = length;
    }

    /// <summary>The requested length.</summary>
    public int Length => _length;

    /// <summary>True while the lease has not been disposed (and is not the default value).</summary>
    public bool IsActive => _lease.IsActive;

    /// <summary>The leased buffer, exactly <see cref="Length"/> long; pinned, so <c>Pin()</c> is free.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Memory<T> Memory
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _lease.Block().GetMemory();
    }

    /// <summary>The leased buffer as a span, exactly <see cref="Length"/> long.</summary>
    /// <exception cref="ObjectDisposedException">The lease has ended (or is the default value).</exception>
    public Span<T> Span
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _lease.Block().GetSpan();
    }

    /// <summary>Returns the buffer to its pool, once; later calls and calls on copies do nothing.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Dispose() => _lease.UncheckedBlock?.EndLease(_lease.Generation);

    /// <inheritdoc />
    public bool Equals(MemoryLease<T> other) => _lease.Equals(other._lease);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is MemoryLease<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => _lease.GetHashCode();

    /// <summary>True when both leases are copies of one lease.</summary>
    public static bool operator ==(MemoryLease<T> left, MemoryLease<T> right) => left.Equals(right);

    /// <summary>True when the leases are not copies of one lease.</summary>
    public static bool operator !=(MemoryLease<T> left, MemoryLease<T> right) => !left.Equals(right);

}
