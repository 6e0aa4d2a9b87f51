using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>Builds a facade's <c>Shared</c> pool in its static initializer so that a malformed process setting fails the documented way.</summary>
/// <remarks>
/// A process setting that holds a malformed value (the guarded switch, the retained-bytes limit, the shared
/// double-return policy) makes building a shared pool throw <see cref="InvalidOperationException"/> naming the
/// setting and the value. Thrown from a static initializer it would surface as a
/// <see cref="TypeInitializationException"/> on the first use of any member of the type, independent pools included,
/// and every later use would rethrow that. Instead the initializer keeps no pool (null), the type stays usable, pools
/// that do not read the setting work, and every use of <c>Shared</c> builds again, which throws the documented
/// exception again (each setting is read once per process, so the outcome never changes, and every constructor reads
/// the settings before it builds anything). Used by the sealed facades, held by their own type, where the getter's null
/// check is one compare; <c>StripedArrayPool&lt;T&gt;</c>, held as an <c>ArrayPool&lt;T&gt;</c> in real code, keeps its
/// getter a plain field load instead (a null check there costs the JIT the pool's exact type) and stands in a pool
/// whose every rent and return throws.
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
