using System;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;

namespace NativePool.Extensions.DependencyInjection;

/// <summary>The registration's throws and their messages, out of line so the registration methods stay small.</summary>
internal static class ThrowHelper
{
    [DoesNotReturn]
    [StackTraceHidden]
    public static void ThrowArgumentNull(string paramName) => throw new ArgumentNullException(paramName);
}
