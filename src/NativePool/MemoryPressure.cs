using System;

namespace NativePool;

/// <summary>How hard the GC is pressed for memory, as the trimmer sees it.</summary>
internal enum MemoryPressure
{
    /// <summary>Under 70 % of the high-memory-load threshold: trim only what has been idle for the trim age.</summary>
    Low,

    /// <summary>70 % to 90 %: trim what has been idle for a quarter of the trim age.</summary>
    Medium,

    /// <summary>90 % and over: release everything the pool holds.</summary>
    High,
}

/// <summary>Reads the memory pressure from <see cref="GC.GetGCMemoryInfo()"/> (which respects container limits).</summary>
internal static class GCMemoryPressure
{
    /// <summary>The pressure now, from the last GC's memory load against the high-load threshold.</summary>
    public static MemoryPressure Read()
    {
        GCMemoryInfo info = GC.GetGCMemoryInfo();
        long threshold = info.HighMemoryLoadThresholdBytes;
        if (threshold <= 0)
        {
            return MemoryPressure.Low;
        }

        double load = (double)info.MemoryLoadBytes / threshold;
        return load >= 0.9 ? MemoryPressure.High : load >= 0.7 ? MemoryPressure.Medium : MemoryPressure.Low;
    }
}
