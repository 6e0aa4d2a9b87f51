using System;

namespace NativePool;

/// <summary>How a <see cref="StripedObjectPool{T}"/> is shaped.</summary>
/// <remarks>
/// The name, trimming and the trim clock, and their rules (validated once, when the pool is created), are
/// <see cref="PoolOptions"/>'s; <see cref="PoolOptions.Name"/> defaults to <c>StripedObjectPool&lt;T&gt;</c> with the
/// object type's name. A pool that disposes its items is never trimmed, whatever <see cref="PoolOptions.TrimmingEnabled"/>
/// says (see <see cref="StripedObjectPool{T}"/>).
/// </remarks>
public sealed class StripedObjectPoolOptions : PoolOptions
{
    /// <summary>
    /// The bound on retained objects (what one thread alone leaves in the pool at most; each other thread that uses the
    /// pool may keep one more in its own slot; see <see cref="StripedObjectPool{T}"/>): 1 to
    /// <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>. Default <c>Environment.ProcessorCount * 2</c>, as
    /// Microsoft's <c>DefaultObjectPool</c>.
    /// </summary>
    public int MaximumRetained { get; set; } = Environment.ProcessorCount * 2;

    /// <summary>
    /// Dispose the <see cref="IDisposable"/> objects the pool drops (overflow, policy rejection) and, when the pool is
    /// disposed, every object it still holds; <c>Get</c> after <c>Dispose</c> then throws. What
    /// <see cref="StripedObjectPoolProvider"/> picks for <see cref="IDisposable"/> types. Default false.
    /// </summary>
    public bool DisposeItems { get; set; }

    /// <summary>
    /// Guarded mode: track every object the pool hands out and detect double returns (an object returned while it is
    /// still in the pool, or returned twice after the pool dropped it) and returns of objects this pool never handed
    /// out; each is handled per <see cref="MisusePolicy"/>, and the refused object is never kept. The policy does not
    /// run on a refused object. A stale return, made after another <c>Get</c> handed the same object out again, looks
    /// like that caller's and is not detected; only <see cref="StripedObjectPool{T}.RentLease"/> leases rule it out.
    /// A debugging aid: every <c>Get</c> and <c>Return</c> takes a lock and every <c>Get</c> records a stack trace. The
    /// AppContext switch <c>NativePool.Guarded</c> or the environment variable <c>NATIVEPOOL_GUARDED=1</c> turns it on
    /// for every pool of the process. Default false.
    /// </summary>
    public bool Guarded { get; set; }

    /// <summary>
    /// Remember the stack that got each object until it is returned, so <see cref="StripedObjectPool{T}.GetLeaks"/> can
    /// say where the objects still out were taken. Works in Release builds; costs a stack trace per <c>Get</c>. Leaks are
    /// reported only by <see cref="StripedObjectPool{T}.GetLeaks"/>: the pool holds each outstanding object until it
    /// comes back, so an object never returned stays alive and is never reported on collection. Default false.
    /// </summary>
    public bool TrackLeaks { get; set; }

    /// <summary>
    /// What a guarded pool does when it detects misuse. Default <see cref="PoolMisusePolicy.Throw"/>. A value the enum
    /// does not define is out of range (checked whether or not the pool is guarded).
    /// </summary>
    public PoolMisusePolicy MisusePolicy { get; set; }

    /// <summary>Receives each misuse when the policy is <see cref="PoolMisusePolicy.Report"/>; null to ignore reports.</summary>
    public Action<PoolMisuse>? OnMisuse { get; set; }

    /// <inheritdoc/>
    private protected override void ValidateOwnOptions()
    {
        ValidateMaximumRetained(MaximumRetained, nameof(MaximumRetained));
        MisuseReporter.ValidatePolicy(MisusePolicy, nameof(MisusePolicy));
    }

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
