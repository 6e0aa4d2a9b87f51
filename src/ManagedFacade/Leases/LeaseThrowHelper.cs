using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool;

/// <summary>The throws every lease type shares, out of line so accessors stay small.</summary>
internal static class LeaseThrowHelper
{
    /// <summary>Throws the exception every lease accessor throws once the lease has ended.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowLeaseEnded() =>
        throw new ObjectDisposedException("lease", "The lease has been disposed: its item went back to the pool and may belong to another renter.");
}
