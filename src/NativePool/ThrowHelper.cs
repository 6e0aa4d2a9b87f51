using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool;

/// <summary>Every throw of the engine and of the facade, with its message, out of line so the callers stay small and inlinable.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentNull(string paramName) => throw new ArgumentNullException(paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentOutOfRange(string paramName, string message) =>
        throw new ArgumentOutOfRangeException(paramName, message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgument(string paramName, string message) => throw new ArgumentException(message, paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentArrayType(string paramName, Type actual, Type expected) =>
        throw new ArgumentException($"An array of type {actual} was not rented from this pool: it hands out {expected} only.", paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowCountOutOfRange(string paramName, int maximumCount) =>
        throw new ArgumentOutOfRangeException(paramName, $"The count must be from 0 to {maximumCount} (int.MaxValue bytes).");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowViewLargerThanLease(string paramName, int leaseBytes, Type viewType, int viewBytes) =>
        throw new ArgumentException($"The lease holds {leaseBytes} bytes; a {viewType.Name} needs {viewBytes}.", paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowInvalidOperation(string message) => throw new InvalidOperationException(message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowObjectDisposed(string objectName) => throw new ObjectDisposedException(objectName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowIO(string message) => throw new System.IO.IOException(message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowNotSupported(string message) => throw new NotSupportedException(message);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowDoubleReturn(string paramName) =>
        throw new InvalidOperationException(
            $"The item passed as '{paramName}' is already in the pool: it was returned twice. " +
            "Returning an item twice would hand it to two renters at once.");

    /// <summary>Throws the exception every lease accessor throws once the lease has ended.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowLeaseEnded() =>
        throw new ObjectDisposedException("lease", "The lease has been disposed: its item went back to the pool and may belong to another renter.");

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowAggregate(string message, IEnumerable<Exception> innerExceptions) =>
        throw new AggregateException(message, innerExceptions);
}
