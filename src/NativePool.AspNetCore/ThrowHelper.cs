using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool.AspNetCore;

/// <summary>Every throw in this assembly goes through here, so the callers stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentNull(string paramName) => throw new ArgumentNullException(paramName);

    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowObjectDisposed(string objectName) => throw new ObjectDisposedException(objectName);
}
