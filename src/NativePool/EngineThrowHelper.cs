using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool;

/// <summary>The engine's throws, out of line so the callers stay small and inlinable. The facade has its own <c>ThrowHelper</c>.</summary>
internal static class EngineThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentOutOfRange(string paramName, string message) =>
        throw new ArgumentOutOfRangeException(paramName, message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowAggregate(string message, IEnumerable<Exception> innerExceptions) =>
        throw new AggregateException(message, innerExceptions);
}
