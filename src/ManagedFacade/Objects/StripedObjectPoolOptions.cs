using System;

namespace NativePool;

/// <summary>How a <see cref="StripedObjectPool{T}"/> is shaped.</summary>
/// <remarks>
/// The pool copies and validates the values when it is created; changing the options afterwards has no effect.
/// A bad value makes the constructor throw an <see cref="ArgumentOutOfRangeException"/> whose
/// <see cref="ArgumentException.ParamName"/> is the option's name.
/// </remarks>
public sealed class StripedObjectPoolOptions
{
    /// <summary>
    /// The strict bound on retained objects, per-thread slots and magazines included: 1 to
    /// <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>. Default <c>Environment.ProcessorCount * 2</c>, as
    /// Microsoft's <c>DefaultObjectPool</c>.
    /// </summary>
    public int MaximumRetained { get; set; } = DefaultMaximumRetained;

    /// <summary>
    /// Dispose the <see cref="IDisposable"/> objects the pool drops (overflow, policy rejection) and, when the pool is
    /// disposed, every object it still holds; <c>Get</c> after <c>Dispose</c> then throws. What
    /// <see cref="StripedObjectPoolProvider"/> picks for <see cref="IDisposable"/> types. Default false.
    /// </summary>
    public bool DisposeItems { get; set; }

    /// <summary>
    /// Whether idle objects are given back to the GC after gen-2 collections and after a while untouched. Default true.
    /// A pool that disposes its items is never trimmed, whatever this says (see <see cref="StripedObjectPool{T}"/>).
    /// </summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>
    /// The pool's name in events and metrics (the <c>pool.name</c> tag). Null (the default) means
    /// <c>StripedObjectPool&lt;T&gt;</c> with the object type's name.
    /// </summary>
    public string? Name { get; set; }

    /// <summary>The default of <see cref="MaximumRetained"/>.</summary>
    internal static int DefaultMaximumRetained => Environment.ProcessorCount * 2;

    /// <summary>Checks <paramref name="maximumRetained"/>, naming <paramref name="paramName"/> when it is out of range.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is below 1 or above the limit.</exception>
    internal static void ValidateMaximumRetained(int maximumRetained, string paramName)
    {
        if (maximumRetained is < 1 or > StripedObjectPool<object>.MaximumRetainedLimit)
        {
            ThrowHelper.ThrowArgumentOutOfRange(paramName, $"MaximumRetained must be from 1 to {StripedObjectPool<object>.MaximumRetainedLimit}.");
        }
    }
}
