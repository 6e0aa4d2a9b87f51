using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>The one lease primitive of the scoped leases: a <see cref="LeaseToken"/> and the generation the lease was made in, carried by every copy, so the first end wins and every other finds the generation moved on. A default handle never ends.</summary>
[StructLayout(LayoutKind.Auto)]
internal readonly struct LeaseHandle : IEquatable<LeaseHandle>
{
    private readonly LeaseToken? _token;
    private readonly long _generation;

    private LeaseHandle(LeaseToken token)
    {
        _token = token;
        _generation = token.Generation;
    }

    /// <summary>True until the lease (or any copy of it) has ended; false for a default handle.</summary>
    public bool IsActive
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _token is not null && _token.Generation == _generation;
    }

    /// <summary>A handle for a new lease, on a token from this thread's free list.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static LeaseHandle Begin() => new(LeaseToken.Take());

    /// <summary>Ends the lease; true for exactly one caller among all copies, even on several threads at once.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEnd() => _token is not null && _token.TryEnd(_generation);

    /// <summary>Throws <see cref="ObjectDisposedException"/> when the lease has ended or is a default lease.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void ThrowIfEnded()
    {
        if (!IsActive)
        {
            ThrowHelper.ThrowLeaseEnded();
        }
    }

    /// <summary>True when both handles belong to copies of one lease.</summary>
    public bool Equals(LeaseHandle other) => _token == other._token && _generation == other._generation;

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is LeaseHandle other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(_token, _generation);
}
