namespace NativePool.Tests;

/// <summary>A trim clock that moves an hour forward on every reading, so every trim pass finds every item idle.</summary>
internal sealed class HourPerReadingClock : TimeProvider
{
    private long _ticks;

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    // Interlocked: the trimmer, the pool's own timer and any other reader may read the clock at once.
    public override long GetTimestamp() => Interlocked.Add(ref _ticks, TimeSpan.TicksPerHour);
}
