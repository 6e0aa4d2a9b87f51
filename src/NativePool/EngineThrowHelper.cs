using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool;

/// <summary>
/// The engine's throws and their messages, out of line so the callers stay small and inlinable. The facade has its
/// own <c>ThrowHelper</c> for the messages users see from its argument checks.
/// </summary>
internal static class EngineThrowHelper
{
    /// <summary>A facade asked for more size classes than a thread cache has slots.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowTooManySizeClasses(string paramName, int maximum) =>
        throw new ArgumentOutOfRangeException(paramName, $"A pool has at most {maximum} size classes.");

    /// <summary>Every pool id is taken by a live pool.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowTooManyPools(int maximum) =>
        throw new InvalidOperationException($"More than {maximum} NativePool pools are alive at once.");

    /// <summary>A process-wide setting holds a value NativePool cannot read (<paramref name="message"/> names it).</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowMalformedSetting(string message) => throw new InvalidOperationException(message);

    /// <summary>Discarding items (an object's <c>Dispose</c>) threw; every other item was still discarded.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowDiscardFailed(IEnumerable<Exception> errors) =>
        throw new AggregateException("Discarding the pooled items threw.", errors);
}
