namespace NativePool.Tests;

/// <summary>A trim clock the test moves by hand, in milliseconds.</summary>
internal sealed class ManualClock : TimeProvider
{
    private long _milliseconds = 1_000;

    public override long TimestampFrequency => 1_000;

    public override long GetTimestamp() => Volatile.Read(ref _milliseconds);

    public void Advance(TimeSpan by) => Interlocked.Add(ref _milliseconds, (long)by.TotalMilliseconds);
}
