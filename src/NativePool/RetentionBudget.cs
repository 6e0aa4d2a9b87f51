using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace NativePool;

/// <summary>A byte budget that the stripes of many pools count against, so together they never hold more than <see cref="Limit"/>.</summary>
/// <remarks>
/// Counted where items enter and leave the stripes (slow paths that already claim one), never in a thread's slot or
/// magazine, so parked items are a bounded extra (<see cref="StripedPool{T}.MaximumThreadBytes"/>). Items of size 0
/// (objects) do not count.
/// </remarks>
internal sealed class RetentionBudget
{
    /// <summary>The runtime setting (runtimeconfig.json <c>configProperties</c>) holding the process's limit in bytes.</summary>
    public const string SettingName = "NativePool.RetainedBytesLimit";

    /// <summary>The environment variable read when the runtime setting is not there.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_RETAINED_BYTES_LIMIT";

    private static readonly ProcessSettingValue<RetentionBudget?> s_process =
        ProcessSettingValue<RetentionBudget?>.Read(static () => ReadLimit(AppContext.GetData, Environment.GetEnvironmentVariable) is long limit ? new RetentionBudget(limit) : null);

    private readonly long _limit;
    private PaddedCount _used; // mutable: do not make readonly

    /// <summary>Creates a budget of <paramref name="limit"/> bytes (at least 1).</summary>
    public RetentionBudget(long limit) => _limit = limit;

    /// <summary>The process's budget, or null when no limit is configured (then nothing is counted).</summary>
    /// <exception cref="InvalidOperationException">The limit's setting holds a value that is not a byte count (see <see cref="ReadLimit"/>).</exception>
    public static RetentionBudget? Process => s_process.Value;

    /// <summary>The process's budget; null when no limit is configured or when its setting is malformed (for observers, which the setting does not configure).</summary>
    public static RetentionBudget? TryReadProcess()
    {
        try
        {
            return s_process.Value;
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>The most bytes the stripes of all the pools on this budget hold together.</summary>
    public long Limit => _limit;

    /// <summary>The bytes the stripes of all the pools on this budget hold now (a snapshot).</summary>
    // Volatile: a snapshot of a word every pool's stripe transfers add to.
    public long Used => Volatile.Read(ref _used.Value);

    /// <summary>Whether three quarters of the limit or more are used: the pools then trim as under medium memory pressure.</summary>
    public bool IsUnderPressure => Used >= _limit - (_limit / 4);

    /// <summary>The limit: the runtime setting <see cref="SettingName"/>, else <see cref="EnvironmentVariable"/>, as a <see cref="ByteCount"/> (<c>256MB</c>, <c>1 GiB</c>); unset or empty: none.</summary>
    /// <exception cref="InvalidOperationException">The value is not a byte count; the message names the setting and the value.</exception>
    internal static long? ReadLimit(Func<string, object?> getSetting, Func<string, string?> getEnvironment)
    {
        ProcessSetting setting = ProcessSetting.Read(SettingName, EnvironmentVariable, getSetting, getEnvironment);
        if (!setting.IsSet)
        {
            return null;
        }

        if (!ByteCount.TryParse(setting.Text, out long limit))
        {
            ThrowHelper.ThrowInvalidOperation(setting.Rejection(ByteCount.Accepted));
        }

        return limit;
    }

    /// <summary>Takes the bytes of up to <paramref name="count"/> items of <paramref name="itemBytes"/> each.</summary>
    /// <returns>How many items' bytes were taken (the first ones of the batch): all, some, or none when the budget is full.</returns>
    public int Take(long itemBytes, int count)
    {
        // Interlocked: the stripe transfers of every pool on this budget add to this one word at once.
        long used = Interlocked.Add(ref _used.Value, itemBytes * count);
        long excess = used - _limit;
        if (excess <= 0)
        {
            return count;
        }

        // Over the limit: keep what fits, give the rest back at once.
        int refused = (int)Math.Min(count, (excess + itemBytes - 1) / itemBytes);
        Release(itemBytes * refused);
        return count - refused;
    }

    /// <summary>Gives back the bytes of items that left the stripes (or never went on them).</summary>
    public void Release(long bytes) =>
        // Interlocked: the stripe transfers of every pool on this budget subtract from this one word at once.
        Interlocked.Add(ref _used.Value, -bytes);

    /// <summary>The used bytes, alone on their line. Mutable struct: do not make readonly.</summary>
    [StructLayout(LayoutKind.Explicit, Size = 2 * CacheLine.Size)]
    private struct PaddedCount
    {
        [FieldOffset(CacheLine.Size)] public long Value;
    }
}
