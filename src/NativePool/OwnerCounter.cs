using System;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// A 64-bit counter one thread writes (on slow paths only) and other threads read: a plain increment where a 64-bit
/// store is atomic, an interlocked one in 32-bit processes, where a reader could see half of it.
/// </summary>
internal static class OwnerCounter
{
    /// <summary>Adds one to <paramref name="counter"/> (owner thread only).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Increment(ref long counter)
    {
        if (IntPtr.Size == 8)
        {
            // Volatile: the owner's store is published to readers on other threads as one 8-byte store.
            Volatile.Write(ref counter, counter + 1);
        }
        else
        {
            // Interlocked: a 32-bit process would otherwise store the two halves separately, and a reader could tear them.
            Interlocked.Increment(ref counter);
        }
    }

    /// <summary>Reads <paramref name="counter"/> from any thread, never torn.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static long Read(ref long counter) =>
        // Volatile: the owner writes from its own thread; Interlocked.Read: one 8-byte read in a 32-bit process.
        IntPtr.Size == 8 ? Volatile.Read(ref counter) : Interlocked.Read(ref counter);
}
