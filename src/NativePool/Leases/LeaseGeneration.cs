using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>Loads and stores of a 64-bit lease generation that are one 8-byte access in every process: plain where a 64-bit access is atomic, interlocked in 32-bit processes, where a plain one is two 4-byte accesses another thread could see half of.</summary>
/// <remarks>
/// Generations are 64-bit so that they never come round: 2^64 leases of one token or block take over 500 years at
/// 10^9 a second (a 32-bit one came round in minutes, and a stale copy then ended a current lease). Ends are
/// compare-exchanges on the whole word; these helpers keep the other accesses whole too, so no torn read can match a
/// generation the word never held. On a 64-bit process they compile to a plain load and store.
/// </remarks>
internal static class LeaseGeneration
{
    /// <summary>Reads <paramref name="generation"/>, never torn.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Read(ref long generation) =>
        // Interlocked.Read: in a 32-bit process a plain read could take half of a lease's store or an end's exchange.
        IntPtr.Size == 8 ? generation : Interlocked.Read(ref generation);

    /// <summary>Stores <paramref name="value"/> into <paramref name="generation"/>, never torn.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Write(ref long generation, long value)
    {
        if (IntPtr.Size == 8)
        {
            generation = value;
        }
        else
        {
            // Interlocked: in a 32-bit process a stale copy's check racing this store could read half of it.
            Interlocked.Exchange(ref generation, value);
        }
    }
}
