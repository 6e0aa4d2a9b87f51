namespace NativePool.Tests.Native;

/// <summary>A trim clock the test moves by hand.</summary>
public sealed class ManualClock : TimeProvider
{
    private long _ticks = 100 * TimeSpan.TicksPerSecond;

    public void Advance(TimeSpan by) => _ticks += by.Ticks;

    public override long GetTimestamp() => _ticks;

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;
}
