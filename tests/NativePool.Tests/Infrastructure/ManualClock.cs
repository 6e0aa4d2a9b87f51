namespace NativePool.Tests;

/// <summary>A trim clock the test moves by hand, in milliseconds.</summary>
internal sealed class ManualClock : TimeProvider
{
    private long _milliseconds = 1_000;

    public override long TimestampFrequency => 1_000;

    /// <summary>The current reading, in milliseconds.</summary>
    // Volatile: timers and trim passes read the clock on their own threads while the test thread moves it.
    public override long GetTimestamp() => Volatile.Read(ref _milliseconds);

    /// <summary>Moves the clock forward by <paramref name="by"/>.</summary>
    // Interlocked: the test thread moves the clock while other threads read it; the 64-bit add is never torn.
    public void Advance(TimeSpan by) => Interlocked.Add(ref _milliseconds, (long)by.TotalMilliseconds);
}
