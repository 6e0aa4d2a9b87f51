using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Builds a facade's <c>Shared</c> pool in its static initializer so that a malformed process setting fails the documented way.</summary>
/// <remarks>
/// Thrown from a static initializer, a malformed setting would become a <see cref="TypeInitializationException"/> on
/// every use of the type; instead the initializer keeps null and every use of <c>Shared</c> builds again, which throws
/// the documented <see cref="InvalidOperationException"/> again.
/// </remarks>
internal static class SharedPool
{
    /// <summary>Runs <paramref name="create"/>; null when a malformed process setting makes it throw <see cref="InvalidOperationException"/>.</summary>
    public static TPool? TryCreate<TPool>(Func<TPool> create)
        where TPool : class
    {
        try
        {
            return create();
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary><paramref name="pool"/>, the type's <c>Shared</c>; when it is null, the exception <paramref name="create"/> throws.</summary>
    /// <exception cref="InvalidOperationException">A process setting the pool reads is malformed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TPool OrThrow<TPool>(TPool? pool, Func<TPool> create)
        where TPool : class
    {
        if (pool is null)
        {
            ThrowRejected(create);
        }

        return pool;
    }

    /// <summary>Throws the <see cref="InvalidOperationException"/> that <paramref name="create"/> throws, the reason <c>Shared</c> is null.</summary>
    [DoesNotReturn]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowRejected<TPool>(Func<TPool> create)
    {
        create();
        ThrowHelper.ThrowInvalidOperation("The shared pool could not be built when its type was initialized.");
    }
}
